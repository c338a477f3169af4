CREATE TABLE `agent_tool_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`instance_id` text,
	`activity` text,
	`agent_key` text NOT NULL,
	`tool` text NOT NULL,
	`args_digest` text NOT NULL,
	`outcome` text NOT NULL,
	`detail` text,
	`duration_ms` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `agent_tool_calls_instance_idx` ON `agent_tool_calls` (`instance_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `ai_task_failures` (
	`id` text PRIMARY KEY NOT NULL,
	`step_key` text NOT NULL,
	`engine` text NOT NULL,
	`process_key` text NOT NULL,
	`instance_id` text,
	`business_key` text,
	`activity` text NOT NULL,
	`agent_key` text NOT NULL,
	`failure_type` text NOT NULL,
	`reason` text NOT NULL,
	`attempt_count` integer NOT NULL,
	`started_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ai_task_failures_step_idx` ON `ai_task_failures` (`step_key`);--> statement-breakpoint
CREATE INDEX `ai_task_failures_bk_idx` ON `ai_task_failures` (`business_key`,`updated_at`);--> statement-breakpoint
CREATE INDEX `ai_task_failures_updated_idx` ON `ai_task_failures` (`updated_at`);