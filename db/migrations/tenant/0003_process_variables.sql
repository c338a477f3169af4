CREATE TABLE `process_variables` (
	`process_key` text NOT NULL,
	`name` text NOT NULL,
	`value` text NOT NULL,
	`secret` integer DEFAULT false NOT NULL,
	`description` text,
	`updated_by` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`process_key`, `name`)
);
