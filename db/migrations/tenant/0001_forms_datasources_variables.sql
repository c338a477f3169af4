CREATE TABLE `form_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`form_id` text NOT NULL,
	`num` integer NOT NULL,
	`schema` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`form_id`) REFERENCES `forms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `form_versions_form_num_uq` ON `form_versions` (`form_id`,`num`);--> statement-breakpoint
CREATE INDEX `form_versions_form_idx` ON `form_versions` (`form_id`);--> statement-breakpoint
CREATE TABLE `forms` (
	`id` text PRIMARY KEY NOT NULL,
	`process_key` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`published_version_id` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `forms_process_key_uq` ON `forms` (`process_key`,`key`);--> statement-breakpoint
CREATE TABLE `datasources` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`config` text NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `datasources_key_uq` ON `datasources` (`key`);--> statement-breakpoint
CREATE TABLE `tenant_variables` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`secret` integer DEFAULT false NOT NULL,
	`updated_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
