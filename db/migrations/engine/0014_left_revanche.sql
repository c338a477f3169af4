CREATE TABLE `history_settings` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`default_ttl_days` integer,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `definition_settings` ADD `history_ttl_days` integer;--> statement-breakpoint
CREATE INDEX `process_instances_history_idx` ON `process_instances` (`tenant_id`,`definition_key`,`end_time`) WHERE state IN ('COMPLETED','CANCELLED');