-- Hand-written (data only, no schema change). A process that a case's process task started records the case as its
-- parent (parent_instance_id) since the process-task link was made; rows written before that carry NULL. This fills
-- them in from the plan items, so that an ending process without a parent can skip the look-up for a waiting case
-- (app/runtime/cmmn/plan-items.ts).
UPDATE `process_instances` SET `parent_instance_id` = (
  SELECT p.`case_instance_id` FROM `case_plan_items` p
  WHERE p.`process_instance_id` = `process_instances`.`id` AND p.`tenant_id` = `process_instances`.`tenant_id`
  LIMIT 1
)
WHERE `parent_instance_id` IS NULL
  AND `id` IN (SELECT `process_instance_id` FROM `case_plan_items` WHERE `process_instance_id` IS NOT NULL);
