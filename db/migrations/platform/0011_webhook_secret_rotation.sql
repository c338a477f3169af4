ALTER TABLE `webhooks` ADD `previous_secret_enc` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `previous_secret_until` integer;