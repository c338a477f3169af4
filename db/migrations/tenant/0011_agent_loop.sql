CREATE TABLE `agent_loop_turns` (
	`id` text PRIMARY KEY NOT NULL,
	`instance_id` text NOT NULL,
	`scope_id` text NOT NULL,
	`sub_process_id` text NOT NULL,
	`agent_key` text NOT NULL,
	`turn` integer NOT NULL,
	`results` text NOT NULL,
	`answer` text NOT NULL,
	`tokens` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_loop_turns_turn_idx` ON `agent_loop_turns` (`scope_id`,`turn`);--> statement-breakpoint
CREATE INDEX `agent_loop_turns_instance_idx` ON `agent_loop_turns` (`instance_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `agent_tool_calls` ADD `turn` integer;--> statement-breakpoint
ALTER TABLE `agent_tool_calls` ADD `tokens` integer;