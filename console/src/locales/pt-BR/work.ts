import { workBase } from "./work-base";
import { workInstances } from "./work-instances";
import { workMonitor } from "./work-monitor";
import { workTasks } from "./work-tasks";

/** Portuguese (Brazil) for the console's work pages: English text → translation, one part file per group of pages. */
export const work: Record<string, string> = { ...workBase, ...workTasks, ...workInstances, ...workMonitor };
