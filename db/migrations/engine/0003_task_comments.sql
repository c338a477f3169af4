CREATE TABLE `task_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`task_id` text NOT NULL,
	`user_id` text,
	`message` text NOT NULL,
	`time` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `task_comments_task_idx` ON `task_comments` (`tenant_id`,`task_id`,`time`);