import { t } from "../i18n";

/**
 * How the work pages show the API's enum values (instance, task, plan item and job states; the reasons a monitor
 * step is parked; the outcomes of the activity log): English readers see the value as the API names it (the pages always did), other languages a word.
 * An unknown value is shown as it comes.
 */
function labels(): Record<string, string> {
  return {
    ACTIVE: t("ACTIVE"),
    COMPLETED: t("COMPLETED"),
    CANCELLED: t("CANCELLED"),
    SUSPENDED: t("SUSPENDED"),
    TERMINATED: t("TERMINATED"),
    FAILED: t("FAILED"),
    AVAILABLE: t("AVAILABLE"),
    ENABLED: t("ENABLED"),
    DISABLED: t("DISABLED"),
    DEADLETTER: t("DEADLETTER"),
    USER_TASK: t("USER_TASK"),
    TIMER: t("TIMER"),
    JOB_RETRYING: t("JOB_RETRYING"),
    JOB_FAILED: t("JOB_FAILED"),
    EXECUTING: t("EXECUTING"),
    RUNNING: t("RUNNING"),
    ENDED: t("ENDED"),
    // Outcomes of the activity log
    completed: t("completed"),
    cancelled: t("cancelled"),
    executed: t("executed"),
    failed: t("failed"),
  };
}

export const enumLabel = (value: string): string => labels()[value] ?? value;
