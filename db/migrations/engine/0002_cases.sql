CREATE TABLE `case_instances` (
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
);
--> statement-breakpoint
CREATE INDEX `case_instances_tenant_state_idx` ON `case_instances` (`tenant_id`,`state`,`start_time`);--> statement-breakpoint
CREATE INDEX `case_instances_definition_idx` ON `case_instances` (`tenant_id`,`definition_key`,`state`);--> statement-breakpoint
CREATE INDEX `case_instances_parent_idx` ON `case_instances` (`parent_case_id`);--> statement-breakpoint
CREATE TABLE `case_plan_items` (
	`id` text PRIMARY KEY NOT NULL,
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
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `case_plan_items_case_idx` ON `case_plan_items` (`case_instance_id`,`seq`);--> statement-breakpoint
CREATE INDEX `case_plan_items_tenant_element_idx` ON `case_plan_items` (`tenant_id`,`element_id`,`state`);--> statement-breakpoint
CREATE TABLE `case_timers` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`case_instance_id` text NOT NULL,
	`plan_item_instance_id` text NOT NULL,
	`element_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`repeat` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `case_timers_due_idx` ON `case_timers` (`due_at`);--> statement-breakpoint
CREATE INDEX `case_timers_case_idx` ON `case_timers` (`case_instance_id`);