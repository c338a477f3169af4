import type { Database, SQLQueryBindings, Statement } from "bun:sqlite";

/** Rows per statement at most: 16 rows of the widest table (15 columns) stay far below SQLite's 32,766 parameters. */
const MAX_ROWS = 16;

/**
 * A multi-row INSERT for rows a command writes together (an instance's activity rows, its variables): one statement
 * execution for up to 16 rows instead of one per row. The statement for each row count is prepared once. `head` is the
 * text up to VALUES, `tail` what follows the value lists (an ON CONFLICT clause).
 */
export function createBatchInsert(db: Database, head: string, columns: number, tail = "") {
  const row = `(${Array.from({ length: columns }, () => "?").join(",")})`;
  const statements: Statement[] = [];
  const statement = (rows: number) =>
    (statements[rows] ??= db.query(`${head} VALUES ${Array.from({ length: rows }, () => row).join(",")} ${tail}`));
  return (rows: SQLQueryBindings[][]): void => {
    for (let i = 0; i < rows.length; i += MAX_ROWS) {
      const chunk = rows.slice(i, i + MAX_ROWS);
      statement(chunk.length).run(...(chunk.flat() as SQLQueryBindings[]));
    }
  };
}
