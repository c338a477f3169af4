CREATE TABLE `cms_collections` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`fields` text NOT NULL,
	`confidentiality` text NOT NULL,
	`record_count` integer DEFAULT 0 NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cms_collections_name_uq` ON `cms_collections` (`name`);--> statement-breakpoint
CREATE TABLE `cms_record_values` (
	`collection_id` text NOT NULL,
	`field` text NOT NULL,
	`v` blob,
	`record_seq` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cms_record_values_lookup_idx` ON `cms_record_values` (`collection_id`,`field`,`v`,`record_seq`);--> statement-breakpoint
CREATE INDEX `cms_record_values_record_idx` ON `cms_record_values` (`record_seq`);--> statement-breakpoint
CREATE TABLE `cms_records` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`collection_id` text NOT NULL,
	`values` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`collection_id`) REFERENCES `cms_collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cms_records_id_uq` ON `cms_records` (`id`);--> statement-breakpoint
CREATE INDEX `cms_records_collection_idx` ON `cms_records` (`collection_id`,`seq`);--> statement-breakpoint
CREATE TABLE `attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`root_id` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`version` integer NOT NULL,
	`document_type_id` text,
	`status` text NOT NULL,
	`superseded_by` text,
	`superseded_at` text,
	`uploaded_by` text,
	`uploaded_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `attachments_entity_idx` ON `attachments` (`entity_type`,`entity_id`,`status`);--> statement-breakpoint
CREATE INDEX `attachments_root_idx` ON `attachments` (`root_id`,`version`);--> statement-breakpoint
CREATE INDEX `attachments_sha_idx` ON `attachments` (`sha256`);--> statement-breakpoint
CREATE TABLE `document_types` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`process_key` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
