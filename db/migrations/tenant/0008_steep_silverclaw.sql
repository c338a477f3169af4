CREATE TABLE `process_docs` (
	`process_key` text PRIMARY KEY NOT NULL,
	`description` text NOT NULL,
	`updated_by` text,
	`updated_at` text NOT NULL
);
