CREATE TABLE `process_template_subscriptions` (
	`tenant_id` text NOT NULL,
	`template_key` text NOT NULL,
	`status` text NOT NULL,
	`applied_version` integer,
	`definition_version` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `template_key`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`template_key`) REFERENCES `process_templates`(`key`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tenant_drops` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`requested_by` text,
	`requested_at` text NOT NULL,
	`phase` text NOT NULL,
	`deleted_rows` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`updated_at` text NOT NULL,
	`finished_at` text
);
--> statement-breakpoint
ALTER TABLE `process_templates` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `process_templates` ADD `updated_at` text;