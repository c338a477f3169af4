CREATE TABLE `definition_settings` (
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`suspended` integer DEFAULT false NOT NULL,
	`catalog_enabled` integer DEFAULT true NOT NULL,
	`business_key_template` text,
	`attachment_policy` text,
	`mcp_policy` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `key`)
);
--> statement-breakpoint
CREATE TABLE `deployments` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`file_name` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `deployments_tenant_idx` ON `deployments` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `executions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`parent_id` text,
	`kind` text NOT NULL,
	`scope_id` text,
	`activity_id` text,
	`state` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `executions_instance_idx` ON `executions` (`instance_id`);--> statement-breakpoint
CREATE INDEX `executions_tenant_activity_idx` ON `executions` (`tenant_id`,`activity_id`);--> statement-breakpoint
CREATE TABLE `process_instances` (
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
);
--> statement-breakpoint
CREATE INDEX `process_instances_tenant_state_idx` ON `process_instances` (`tenant_id`,`state`,`start_time`);--> statement-breakpoint
CREATE INDEX `process_instances_definition_idx` ON `process_instances` (`tenant_id`,`definition_key`,`state`);--> statement-breakpoint
CREATE INDEX `process_instances_business_key_idx` ON `process_instances` (`tenant_id`,`business_key`);--> statement-breakpoint
CREATE INDEX `process_instances_parent_idx` ON `process_instances` (`parent_instance_id`);--> statement-breakpoint
CREATE TABLE `variables` (
	`tenant_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`execution_id` text NOT NULL,
	`name` text NOT NULL,
	`value` text NOT NULL,
	`text_value` text,
	PRIMARY KEY(`execution_id`, `name`)
);
--> statement-breakpoint
CREATE INDEX `variables_instance_idx` ON `variables` (`instance_id`);--> statement-breakpoint
CREATE INDEX `variables_search_idx` ON `variables` (`tenant_id`,`name`,`text_value`);--> statement-breakpoint
CREATE TABLE `task_candidates` (
	`task_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`principal` text NOT NULL,
	PRIMARY KEY(`task_id`, `kind`, `principal`)
);
--> statement-breakpoint
CREATE INDEX `task_candidates_lookup_idx` ON `task_candidates` (`tenant_id`,`kind`,`principal`);--> statement-breakpoint
CREATE TABLE `tasks` (
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
);
--> statement-breakpoint
CREATE INDEX `tasks_tenant_state_idx` ON `tasks` (`tenant_id`,`state`,`created`);--> statement-breakpoint
CREATE INDEX `tasks_assignee_idx` ON `tasks` (`tenant_id`,`assignee`,`state`);--> statement-breakpoint
CREATE INDEX `tasks_instance_idx` ON `tasks` (`instance_id`);--> statement-breakpoint
CREATE INDEX `tasks_completed_by_idx` ON `tasks` (`tenant_id`,`completed_by`,`completed_at`);--> statement-breakpoint
CREATE TABLE `event_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`instance_id` text,
	`execution_id` text,
	`definition_id` text NOT NULL,
	`activity_id` text NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `event_subscriptions_lookup_idx` ON `event_subscriptions` (`tenant_id`,`type`,`name`);--> statement-breakpoint
CREATE INDEX `event_subscriptions_instance_idx` ON `event_subscriptions` (`instance_id`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`instance_id` text,
	`execution_id` text,
	`definition_id` text NOT NULL,
	`activity_id` text NOT NULL,
	`kind` text NOT NULL,
	`state` text NOT NULL,
	`due_at` integer NOT NULL,
	`retries` integer NOT NULL,
	`exception` text,
	`lock_owner` text,
	`lock_expires_at` integer,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`state`,`due_at`);--> statement-breakpoint
CREATE INDEX `jobs_instance_idx` ON `jobs` (`instance_id`);--> statement-breakpoint
CREATE INDEX `jobs_tenant_state_idx` ON `jobs` (`tenant_id`,`state`);--> statement-breakpoint
CREATE TABLE `activity_log` (
	`id` text PRIMARY KEY NOT NULL,
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
	`outcome` text
);
--> statement-breakpoint
CREATE INDEX `activity_log_instance_idx` ON `activity_log` (`instance_id`,`start_time`);--> statement-breakpoint
CREATE TABLE `involvements` (
	`tenant_id` text NOT NULL,
	`instance_id` text NOT NULL,
	`kind` text NOT NULL,
	`principal` text NOT NULL,
	PRIMARY KEY(`instance_id`, `kind`, `principal`)
);
--> statement-breakpoint
CREATE INDEX `involvements_principal_idx` ON `involvements` (`tenant_id`,`kind`,`principal`);--> statement-breakpoint
ALTER TABLE `definitions` ADD `model` text;