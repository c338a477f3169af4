CREATE TABLE `agent_loop_steps` (
	`id` text PRIMARY KEY NOT NULL,
	`instance_id` text NOT NULL,
	`scope_id` text NOT NULL,
	`turn` integer NOT NULL,
	`step` integer NOT NULL,
	`data` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_loop_steps_step_idx` ON `agent_loop_steps` (`scope_id`,`turn`,`step`);