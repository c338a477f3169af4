CREATE TABLE `definitions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`version` integer NOT NULL,
	`deployment_id` text NOT NULL,
	`xml` text NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `definitions_tenant_key_version_uq` ON `definitions` (`tenant_id`,`key`,`version`);--> statement-breakpoint
CREATE INDEX `definitions_tenant_idx` ON `definitions` (`tenant_id`,`key`);--> statement-breakpoint
CREATE TABLE `decisions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`version` integer NOT NULL,
	`deployment_id` text NOT NULL,
	`xml` text NOT NULL,
	`source_template` text,
	`created_by` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `decisions_tenant_key_version_uq` ON `decisions` (`tenant_id`,`key`,`version`);--> statement-breakpoint
CREATE INDEX `decisions_tenant_idx` ON `decisions` (`tenant_id`);