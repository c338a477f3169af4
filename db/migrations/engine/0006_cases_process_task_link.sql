DROP INDEX `case_instances_parent_idx`;--> statement-breakpoint
DROP INDEX `case_plan_items_case_idx`;--> statement-breakpoint
DROP INDEX `case_plan_items_tenant_element_idx`;--> statement-breakpoint
ALTER TABLE `case_plan_items` ADD `process_instance_id` text;--> statement-breakpoint
CREATE INDEX `case_plan_items_process_instance_idx` ON `case_plan_items` (`process_instance_id`) WHERE "case_plan_items"."process_instance_id" IS NOT NULL;