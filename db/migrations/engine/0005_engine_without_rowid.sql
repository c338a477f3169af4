-- Custom migration (drizzle cannot declare WITHOUT ROWID): the hot BPMN runtime tables are rebuilt with the same columns,
-- keys and indexes as the schema in db/engine/schema declares, as WITHOUT ROWID tables. A rowid table with a text key
-- keeps two b-trees (the rows and the key's index), so every insert or delete dirtied one page more per table.
CREATE TABLE `__wr_process_instances` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`definition_id` text NOT NULL,
	`definition_key` text NOT NULL,
	`version` integer NOT NULL,
	`business_key` text,
	`parent_instance_id` text,
	`parent_execution_id` text,
	`state` text NOT NULL,
	`started_by` text,
	`channel` text,
	`start_time` integer NOT NULL,
	`end_time` integer,
	`end_reason` text,
	`revision` integer DEFAULT 0 NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__wr_process_instances` ("id", "tenant_id", "definition_id", "definition_key", "version", "business_key", "parent_instance_id", "parent_execution_id", "state", "started_by", "channel", "start_time", "end_time", "end_reason", "revision") SELECT "id", "tenant_id", "definition_id", "definition_key", "version", "business_key", "parent_instance_id", "parent_execution_id", "state", "started_by", "channel", "start_time", "end_time", "end_reason", "revision" FROM `process_instances`;--> statement-breakpoint
DROP TABLE `process_instances`;--> statement-breakpoint
ALTER TABLE `__wr_process_instances` RENAME TO `process_instances`;--> statement-breakpoint
CREATE INDEX `process_instances_tenant_state_idx` ON `process_instances` (`tenant_id`,`state`,`start_time`);--> statement-breakpoint
CREATE INDEX `process_instances_definition_idx` ON `process_instances` (`tenant_id`,`definition_key`,`state`);--> statement-breakpoint
CREATE TABLE `__wr_executions` (
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
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__wr_executions` ("id", "tenant_id", "instance_id", "parent_id", "kind", "scope_id", "activity_id", "state", "data", "created_at") SELECT "id", "tenant_id", "instance_id", "parent_id", "kind", "scope_id", "activity_id", "state", "data", "created_at" FROM `executions`;--> statement-breakpoint
DROP TABLE `executions`;--> statement-breakpoint
ALTER TABLE `__wr_executions` RENAME TO `executions`;--> statement-breakpoint
CREATE TABLE `__wr_variables` (
	`tenant_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`execution_id` text NOT NULL,
	`name` text NOT NULL,
	`value` text NOT NULL,
	`text_value` text,
	PRIMARY KEY(`instance_id`, `execution_id`, `name`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__wr_variables` ("tenant_id", "instance_id", "execution_id", "name", "value", "text_value") SELECT "tenant_id", "instance_id", "execution_id", "name", "value", "text_value" FROM `variables`;--> statement-breakpoint
DROP TABLE `variables`;--> statement-breakpoint
ALTER TABLE `__wr_variables` RENAME TO `variables`;--> statement-breakpoint
CREATE INDEX `variables_search_idx` ON `variables` (`tenant_id`,`name`,`text_value`);--> statement-breakpoint
CREATE TABLE `__wr_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`execution_id` text NOT NULL,
	`activity_id` text NOT NULL,
	`name` text NOT NULL,
	`business_key` text,
	`definition_key` text NOT NULL,
	`definition_id` text NOT NULL,
	`assignee` text,
	`owner` text,
	`candidate_users` text NOT NULL,
	`candidate_groups` text NOT NULL,
	`created` integer NOT NULL,
	`due_date` integer,
	`priority` integer NOT NULL,
	`form_key` text,
	`form_version_id` text,
	`state` text NOT NULL,
	`completed_at` integer,
	`completed_by` text,
	`channel` text
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__wr_tasks` ("id", "tenant_id", "instance_id", "execution_id", "activity_id", "name", "business_key", "definition_key", "definition_id", "assignee", "owner", "candidate_users", "candidate_groups", "created", "due_date", "priority", "form_key", "form_version_id", "state", "completed_at", "completed_by", "channel") SELECT "id", "tenant_id", "instance_id", "execution_id", "activity_id", "name", "business_key", "definition_key", "definition_id", "assignee", "owner", "candidate_users", "candidate_groups", "created", "due_date", "priority", "form_key", "form_version_id", "state", "completed_at", "completed_by", "channel" FROM `tasks`;--> statement-breakpoint
DROP TABLE `tasks`;--> statement-breakpoint
ALTER TABLE `__wr_tasks` RENAME TO `tasks`;--> statement-breakpoint
CREATE INDEX `tasks_open_idx` ON `tasks` (`tenant_id`,`created`) WHERE state = 'OPEN';--> statement-breakpoint
CREATE INDEX `tasks_open_assignee_idx` ON `tasks` (`tenant_id`,`assignee`,`created`) WHERE state = 'OPEN' AND assignee IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_completed_idx` ON `tasks` (`tenant_id`,`completed_at`) WHERE state = 'COMPLETED';--> statement-breakpoint
CREATE INDEX `tasks_instance_idx` ON `tasks` (`instance_id`);--> statement-breakpoint
CREATE TABLE `__wr_task_candidates` (
	`task_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`principal` text NOT NULL,
	`state` text,
	`created` integer,
	PRIMARY KEY(`task_id`, `kind`, `principal`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__wr_task_candidates` ("task_id", "tenant_id", "kind", "principal", "state", "created") SELECT "task_id", "tenant_id", "kind", "principal", "state", "created" FROM `task_candidates`;--> statement-breakpoint
DROP TABLE `task_candidates`;--> statement-breakpoint
ALTER TABLE `__wr_task_candidates` RENAME TO `task_candidates`;--> statement-breakpoint
CREATE INDEX `task_candidates_open_idx` ON `task_candidates` (`tenant_id`,`kind`,`principal`,`created`) WHERE state = 'OPEN';--> statement-breakpoint
CREATE INDEX `task_candidates_unstated_idx` ON `task_candidates` (`tenant_id`,`kind`,`principal`) WHERE state IS NULL;--> statement-breakpoint
CREATE TABLE `__wr_activity_log` (
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
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__wr_activity_log` ("id", "tenant_id", "instance_id", "execution_id", "activity_id", "activity_name", "activity_type", "start_time", "end_time", "task_id", "who", "channel", "outcome") SELECT "id", "tenant_id", "instance_id", "execution_id", "activity_id", "activity_name", "activity_type", "start_time", "end_time", "task_id", "who", "channel", "outcome" FROM `activity_log`;--> statement-breakpoint
DROP TABLE `activity_log`;--> statement-breakpoint
ALTER TABLE `__wr_activity_log` RENAME TO `activity_log`;--> statement-breakpoint
CREATE TABLE `__wr_involvements` (
	`tenant_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`kind` text NOT NULL,
	`principal` text NOT NULL,
	PRIMARY KEY(`instance_id`, `kind`, `principal`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__wr_involvements` ("tenant_id", "instance_id", "kind", "principal") SELECT "tenant_id", "instance_id", "kind", "principal" FROM `involvements`;--> statement-breakpoint
DROP TABLE `involvements`;--> statement-breakpoint
ALTER TABLE `__wr_involvements` RENAME TO `involvements`;--> statement-breakpoint
CREATE INDEX `involvements_principal_idx` ON `involvements` (`tenant_id`,`kind`,`principal`);
