PRAGMA foreign_keys=OFF;--> statement-breakpoint
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
);
--> statement-breakpoint
INSERT INTO `__new_case_plan_items`("id", "tenant_id", "case_instance_id", "stage_instance_id", "element_id", "definition_ref", "name", "type", "state", "seq", "created_at", "started_at", "ended_at", "ended_by", "channel", "data", "process_instance_id") SELECT "id", "tenant_id", "case_instance_id", "stage_instance_id", "element_id", "definition_ref", "name", "type", "state", "seq", "created_at", "started_at", "ended_at", "ended_by", "channel", "data", "process_instance_id" FROM `case_plan_items`;--> statement-breakpoint
DROP TABLE `case_plan_items`;--> statement-breakpoint
ALTER TABLE `__new_case_plan_items` RENAME TO `case_plan_items`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `case_plan_items_process_instance_idx` ON `case_plan_items` (`process_instance_id`) WHERE "case_plan_items"."process_instance_id" IS NOT NULL;