/** `{content: {"application/json": {schema}}}` for createRoute request bodies and responses. */
export const json = <T>(schema: T) => ({ content: { "application/json": { schema } } });
