-- Custom SQL migration file, put your code below! --
-- The case tables WITHOUT ROWID (drizzle cannot declare it): the text primary key becomes the table's b-tree, so an
-- insert or update writes one b-tree less. Plan items are clustered by case (primary key case_instance_id, id).
CREATE TABLE `__new_case_instances` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`definition_id` text NOT NULL,
	`definition_key` text NOT NULL,
	`version` integer NOT NULL,
	`business_key` text,
	`parent_case_id` text,
	`parent_plan_item_id` text,
	`state` text NOT NULL,
	`started_by` text,
	`channel` text,
	`start_time` integer NOT NULL,
	`end_time` integer,
	`end_reason` text,
	`variables` text NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_case_instances` SELECT `id`, `tenant_id`, `definition_id`, `definition_key`, `version`, `business_key`, `parent_case_id`, `parent_plan_item_id`, `state`, `started_by`, `channel`, `start_time`, `end_time`, `end_reason`, `variables`, `revision` FROM `case_instances`;
--> statement-breakpoint
DROP TABLE `case_instances`;
--> statement-breakpoint
ALTER TABLE `__new_case_instances` RENAME TO `case_instances`;
--> statement-breakpoint
CREATE INDEX `case_instances_tenant_state_idx` ON `case_instances` (`tenant_id`,`state`,`start_time`);
--> statement-breakpoint
CREATE INDEX `case_instances_definition_idx` ON `case_instances` (`tenant_id`,`definition_key`,`state`);
--> statement-breakpoint
CREATE TABLE `__new_case_plan_items` (
	`id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`case_instance_id` text NOT NULL,
	`stage_instance_id` text,
	`element_id` text NOT NULL,
	`definition_ref` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`state` text NOT NULL,
	`seq` integer NOT NULL,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`ended_at` integer,
	`ended_by` text,
	`channel` text,
	`data` text NOT NULL,
	`process_instance_id` text,
	PRIMARY KEY(`case_instance_id`, `id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_case_plan_items` SELECT `id`, `tenant_id`, `case_instance_id`, `stage_instance_id`, `element_id`, `definition_ref`, `name`, `type`, `state`, `seq`, `created_at`, `started_at`, `ended_at`, `ended_by`, `channel`, `data`,
	CASE WHEN `type` = 'processTask' THEN json_extract(`data`, '$.processInstanceId') END FROM `case_plan_items`;
--> statement-breakpoint
DROP TABLE `case_plan_items`;
--> statement-breakpoint
ALTER TABLE `__new_case_plan_items` RENAME TO `case_plan_items`;
--> statement-breakpoint
CREATE INDEX `case_plan_items_process_instance_idx` ON `case_plan_items` (`process_instance_id`) WHERE "case_plan_items"."process_instance_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `__new_case_timers` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`case_instance_id` text NOT NULL,
	`plan_item_instance_id` text NOT NULL,
	`element_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`repeat` text,
	`created_at` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_case_timers` SELECT `id`, `tenant_id`, `case_instance_id`, `plan_item_instance_id`, `element_id`, `due_at`, `repeat`, `created_at` FROM `case_timers`;
--> statement-breakpoint
DROP TABLE `case_timers`;
--> statement-breakpoint
ALTER TABLE `__new_case_timers` RENAME TO `case_timers`;
--> statement-breakpoint
CREATE INDEX `case_timers_due_idx` ON `case_timers` (`due_at`);
--> statement-breakpoint
CREATE INDEX `case_timers_case_idx` ON `case_timers` (`case_instance_id`);
