// The parts of camunda-external-task-client-js (no types of its own) the tests use.
declare module "camunda-external-task-client-js" {
  export interface TypedValue {
    type: string;
    value: unknown;
    valueInfo?: Record<string, unknown>;
  }
  export class Variables {
    constructor(initial?: Record<string, unknown>);
    get(name: string): unknown;
    getTyped(name: string): TypedValue | null;
    getAll(): Record<string, unknown>;
    set(name: string, value: unknown): Variables;
    setTyped(name: string, typed: TypedValue): Variables;
  }
  export interface Task {
    id: string;
    topicName: string;
    processInstanceId: string | null;
    activityId: string;
    retries: number | null;
    errorMessage: string | null;
    variables: Variables;
  }
  export interface TaskService {
    complete(task: Task, variables?: Variables, localVariables?: Variables): Promise<void>;
    handleFailure(
      task: Task,
      options: { errorMessage: string; errorDetails?: string; retries?: number; retryTimeout?: number },
    ): Promise<void>;
    handleBpmnError(task: Task, errorCode: string, errorMessage?: string, variables?: Variables): Promise<void>;
    extendLock(task: Task, newDuration: number): Promise<void>;
    unlock(task: Task): Promise<void>;
  }
  export type Handler = (args: { task: Task; taskService: TaskService }) => Promise<void> | void;
  export class Client {
    constructor(options: Record<string, unknown>);
    subscribe(topic: string, options: Record<string, unknown> | Handler, handler?: Handler): { unsubscribe(): void };
    start(): void;
    stop(): void;
    on(event: string, fn: (...args: unknown[]) => void): void;
  }
}
