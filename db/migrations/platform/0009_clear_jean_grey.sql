CREATE TABLE `kb_ivf_indexes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`base_id` text NOT NULL,
	`dims` integer NOT NULL,
	`cells` integer NOT NULL,
	`centroids` blob NOT NULL,
	`state` text NOT NULL,
	`trained_count` integer NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kb_ivf_indexes_base_idx` ON `kb_ivf_indexes` (`base_id`);