declare module "cmmn-moddle" {
  /** Minimal typing of cmmn-moddle 5: a factory whose instances still use the callback-style fromXML. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Done = (
    err: Error | null,
    definitions: any,
    context: { warnings: Array<{ message: string }>; references: unknown[]; elementsById: Record<string, any> },
  ) => void;
  export default function CmmnModdle(
    packages?: Record<string, unknown>,
    options?: Record<string, unknown>,
  ): { fromXML(xml: string, done: Done): void };
}
