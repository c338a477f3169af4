PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_executions` (
	`id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`parent_id` text,
	`kind` text NOT NULL,
	`scope_id` text,
	`activity_id` text,
	`state` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`instance_id`, `id`)
);
--> statement-breakpoint
INSERT INTO `__new_executions`("id", "tenant_id", "instance_id", "parent_id", "kind", "scope_id", "activity_id", "state", "data", "created_at") SELECT "id", "tenant_id", "instance_id", "parent_id", "kind", "scope_id", "activity_id", "state", "data", "created_at" FROM `executions`;--> statement-breakpoint
DROP TABLE `executions`;--> statement-breakpoint
ALTER TABLE `__new_executions` RENAME TO `executions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
DROP INDEX `process_instances_business_key_idx`;--> statement-breakpoint
DROP INDEX `process_instances_parent_idx`;--> statement-breakpoint
CREATE TABLE `__new_variables` (
	`tenant_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`execution_id` text NOT NULL,
	`name` text NOT NULL,
	`value` text NOT NULL,
	`text_value` text,
	PRIMARY KEY(`instance_id`, `execution_id`, `name`)
);
--> statement-breakpoint
INSERT INTO `__new_variables`("tenant_id", "instance_id", "execution_id", "name", "value", "text_value") SELECT "tenant_id", "instance_id", "execution_id", "name", "value", "text_value" FROM `variables`;--> statement-breakpoint
DROP TABLE `variables`;--> statement-breakpoint
ALTER TABLE `__new_variables` RENAME TO `variables`;--> statement-breakpoint
CREATE INDEX `variables_search_idx` ON `variables` (`tenant_id`,`name`,`text_value`);--> statement-breakpoint
DROP INDEX `task_candidates_lookup_idx`;--> statement-breakpoint
ALTER TABLE `task_candidates` ADD `state` text;--> statement-breakpoint
ALTER TABLE `task_candidates` ADD `created` integer;--> statement-breakpoint
CREATE INDEX `task_candidates_open_idx` ON `task_candidates` (`tenant_id`,`kind`,`principal`,`created`) WHERE state = 'OPEN';--> statement-breakpoint
CREATE INDEX `task_candidates_unstated_idx` ON `task_candidates` (`tenant_id`,`kind`,`principal`) WHERE state IS NULL;--> statement-breakpoint
DROP INDEX `tasks_tenant_state_idx`;--> statement-breakpoint
DROP INDEX `tasks_assignee_idx`;--> statement-breakpoint
DROP INDEX `tasks_completed_by_idx`;--> statement-breakpoint
CREATE INDEX `tasks_open_idx` ON `tasks` (`tenant_id`,`created`) WHERE state = 'OPEN';--> statement-breakpoint
CREATE INDEX `tasks_open_assignee_idx` ON `tasks` (`tenant_id`,`assignee`,`created`) WHERE state = 'OPEN' AND assignee IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_completed_idx` ON `tasks` (`tenant_id`,`completed_at`) WHERE state = 'COMPLETED';--> statement-breakpoint
CREATE TABLE `__new_activity_log` (
	`id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`execution_id` text NOT NULL,
	`activity_id` text NOT NULL,
	`activity_name` text NOT NULL,
	`activity_type` text NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer,
	`task_id` text,
	`who` text,
	`channel` text,
	`outcome` text,
	PRIMARY KEY(`instance_id`, `id`)
);
--> statement-breakpoint
INSERT INTO `__new_activity_log`("id", "tenant_id", "instance_id", "execution_id", "activity_id", "activity_name", "activity_type", "start_time", "end_time", "task_id", "who", "channel", "outcome") SELECT "id", "tenant_id", "instance_id", "execution_id", "activity_id", "activity_name", "activity_type", "start_time", "end_time", "task_id", "who", "channel", "outcome" FROM `activity_log`;--> statement-breakpoint
DROP TABLE `activity_log`;--> statement-breakpoint
ALTER TABLE `__new_activity_log` RENAME TO `activity_log`;