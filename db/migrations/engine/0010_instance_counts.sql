CREATE TABLE `instance_counts` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`running` integer DEFAULT 0 NOT NULL,
	`ended` integer DEFAULT 0 NOT NULL
);
