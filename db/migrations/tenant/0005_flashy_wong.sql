CREATE TABLE `kb_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` text NOT NULL,
	`base_id` text NOT NULL,
	`ordinal` integer NOT NULL,
	`text` text NOT NULL,
	`location` text,
	`start_offset` integer NOT NULL,
	`end_offset` integer NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `kb_documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `kb_chunks_document_idx` ON `kb_chunks` (`document_id`);--> statement-breakpoint
CREATE INDEX `kb_chunks_base_idx` ON `kb_chunks` (`base_id`);--> statement-breakpoint
CREATE TABLE `kb_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`base_id` text NOT NULL,
	`file_name` text NOT NULL,
	`format` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`chunks_done` integer DEFAULT 0 NOT NULL,
	`chunks_total` integer DEFAULT 0 NOT NULL,
	`embedded` integer DEFAULT false NOT NULL,
	`uploaded_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`base_id`) REFERENCES `knowledge_bases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `kb_documents_base_idx` ON `kb_documents` (`base_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `kb_process_links` (
	`definition_key` text NOT NULL,
	`base_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`definition_key`, `base_id`)
);
--> statement-breakpoint
CREATE TABLE `knowledge_bases` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`kind` text NOT NULL,
	`process_key` text,
	`embedding_model` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
