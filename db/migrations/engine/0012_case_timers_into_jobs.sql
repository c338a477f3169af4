-- Timer event listeners of cases become rows of the jobs table (kind 'case-timer'): one executor runs BPMN jobs, BPMN
-- timers and case timers with the same locking, retries and dead-letter rule. The pending timers move with their due
-- dates (the plan item instance is the job's execution, the listener's element its activity); then the table goes.
INSERT INTO `jobs` (`id`, `tenant_id`, `instance_id`, `execution_id`, `definition_id`, `activity_id`, `kind`, `state`, `due_at`, `retries`, `exception`, `lock_owner`, `lock_expires_at`, `data`, `created_at`)
SELECT t.`id`, t.`tenant_id`, t.`case_instance_id`, t.`plan_item_instance_id`, COALESCE(c.`definition_id`, ''), t.`element_id`, 'case-timer', 'EXECUTABLE', t.`due_at`, 3, NULL, NULL, NULL, json_object('repeat', json(t.`repeat`)), t.`created_at`
FROM `case_timers` t LEFT JOIN `case_instances` c ON c.`id` = t.`case_instance_id`;--> statement-breakpoint
DROP TABLE `case_timers`;
