import { readFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { distance } from 'fastest-levenshtein';
import { z } from 'zod';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import type { ClassificationStore } from './toolbox/classify.ts';

/** A solved guard task: the agent's input and output, the plan and code that decided it, and the label. */
export interface Demonstration {
  request: string;
  input: string;
  output: string;
  plan: string;
  code: string;
  label: 0 | 1;
  /** Where it came from: seeded from files, added by a user, or a case a person confirmed. */
  source: 'seed' | 'user' | 'confirmed';
}

const seedSchema = z.array(
  z.object({
    request: z.string(),
    input: z.string(),
    output: z.string(),
    plan: z.string(),
    code: z.string(),
    label: z.union([z.literal(0), z.literal(1)]),
  }),
);

/** A retrieved demonstration and its edit distance to the task. */
export interface Retrieved {
  demonstration: Demonstration;
  distance: number;
}

const q = 3;

/** The 3-grams of a text as sorted hashes, so that two texts' shared 3-grams are counted by one merge. */
function grams(text: string): Uint32Array {
  const hashes = new Uint32Array(Math.max(0, text.length - q + 1));
  for (let index = 0; index < hashes.length; index++) {
    hashes[index] =
      (Math.imul(Math.imul(text.charCodeAt(index), 65599) + text.charCodeAt(index + 1), 65599) +
        text.charCodeAt(index + 2)) >>>
      0;
  }
  return hashes.sort();
}

/** How many 3-grams two sorted gram lists share, duplicates counted. */
function shared(left: Uint32Array, right: Uint32Array): number {
  let count = 0;
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const a = left[i] as number;
    const b = right[j] as number;
    if (a === b) {
      count++;
      i++;
      j++;
    } else if (a < b) i++;
    else j++;
  }
  return count;
}

interface Indexed {
  demonstration: Demonstration;
  text: string;
  grams: Uint32Array;
}

/** How a task's input or output is stored and compared: text as is, anything else as JSON. */
export function taskText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A stored input or output read back: JSON when it is JSON, else the text. */
export function taskValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The text a task is compared by: its input and its output. */
const keyOf = (input: string, output: string) => `${input}\n${output}`;

/**
 * The guard agent's memory: demonstrations, the programs that decided earlier tasks of each guard request, and the
 * answers of `Classify` by text, in an embedded SQLite database (`node:sqlite`); demonstrations are retrieved by
 * Levenshtein distance over input and output as in the GuardAgent paper. A lower bound on the distance from lengths and shared 3-grams (one
 * edit changes at most three 3-grams) orders the demonstrations and rules out those it proves farther; exact
 * distances are computed only for the rest, at most a budget of them.
 *
 * @example
 * ```ts
 * const memory = DemonstrationMemory.open(':memory:');
 * memory.add({ request, input, output, plan, code, label: 1, source: 'user' });
 * const [best] = memory.retrieve(input, output, 1);
 * ```
 */
export class DemonstrationMemory implements ClassificationStore {
  private readonly database: DatabaseSync;
  private readonly indexed: Indexed[] = [];

  private constructor(database: DatabaseSync) {
    this.database = database;
    database.exec(`CREATE TABLE IF NOT EXISTS demonstrations (
      id INTEGER PRIMARY KEY, request TEXT NOT NULL, input TEXT NOT NULL, output TEXT NOT NULL,
      plan TEXT NOT NULL, code TEXT NOT NULL, label INTEGER NOT NULL CHECK (label IN (0, 1)), source TEXT NOT NULL)`);
    database.exec(`CREATE TABLE IF NOT EXISTS programs (
      id INTEGER PRIMARY KEY, request TEXT NOT NULL, code TEXT NOT NULL, decided INTEGER NOT NULL DEFAULT 0,
      UNIQUE (request, code))`);
    database.exec('CREATE TABLE IF NOT EXISTS classifications (key TEXT PRIMARY KEY, labels TEXT NOT NULL)');
    const rows = database
      .prepare('SELECT request, input, output, plan, code, label, source FROM demonstrations ORDER BY id')
      .all() as unknown as Demonstration[];
    for (const row of rows) this.index(row);
  }

  /** Opens (or creates) a memory file; `:memory:` for one that lives with the process. */
  static open(file: string): DemonstrationMemory {
    return new DemonstrationMemory(new DatabaseSync(file));
  }

  private index(demonstration: Demonstration): void {
    const text = keyOf(demonstration.input, demonstration.output);
    this.indexed.push({ demonstration, text, grams: grams(text) });
  }

  /** How many demonstrations the memory holds. */
  get size(): number {
    return this.indexed.length;
  }

  /** Stores demonstrations. */
  add(...demonstrations: Demonstration[]): void {
    const insert = this.database.prepare(
      'INSERT INTO demonstrations (request, input, output, plan, code, label, source) VALUES (@request, @input, @output, @plan, @code, @label, @source)',
    );
    this.database.exec('BEGIN');
    try {
      for (const demonstration of demonstrations) insert.run({ ...demonstration });
      this.database.exec('COMMIT');
    } catch (error) {
      this.database.exec('ROLLBACK');
      throw error;
    }
    for (const demonstration of demonstrations) this.index(demonstration);
  }

  /**
   * The `k` demonstrations closest to a task's input and output, closest first. Exact distances are computed in order
   * of the lower bound, until the bound proves the rest farther, or for at most `budget` demonstrations (then the
   * answer is the best among the most promising).
   */
  retrieve(input: string, output: string, k = 3, budget = 64): Retrieved[] {
    const text = keyOf(input, output);
    const own = grams(text);
    const bounds = this.indexed.map((item) => {
      const common = shared(own, item.grams);
      const bound = Math.max(
        Math.abs(text.length - item.text.length),
        Math.ceil((own.length - common) / q),
        Math.ceil((item.grams.length - common) / q),
      );
      return { item, bound };
    });
    bounds.sort((a, b) => a.bound - b.bound);
    const best: Retrieved[] = [];
    for (const [rank, { item, bound }] of bounds.entries()) {
      if (best.length === k && (bound >= (best.at(-1)?.distance ?? Number.POSITIVE_INFINITY) || rank >= budget)) break;
      const exact = distance(text, item.text);
      if (best.length < k || exact < (best.at(-1)?.distance ?? Number.POSITIVE_INFINITY)) {
        best.push({ demonstration: item.demonstration, distance: exact });
        best.sort((a, b) => a.distance - b.distance);
        if (best.length > k) best.pop();
      }
    }
    return best;
  }

  /**
   * Keeps guard code that decided a task of `request`, so that later tasks of the request try it first; a program
   * kept already has its count of decided tasks raised.
   */
  keepProgram(request: string, code: string): void {
    this.database
      .prepare(
        'INSERT INTO programs (request, code, decided) VALUES (?, ?, 1) ON CONFLICT (request, code) DO UPDATE SET decided = decided + 1',
      )
      .run(request, code);
  }

  /** The programs kept for a request, the one that decided most tasks first. */
  programs(request: string): { code: string; decided: number }[] {
    return this.database
      .prepare('SELECT code, decided FROM programs WHERE request = ? ORDER BY decided DESC, id DESC')
      .all(request) as { code: string; decided: number }[];
  }

  /** The labels a classification of guard code was answered with (see `Classifier`), by its key. */
  classification(key: string): string[] | undefined {
    const row = this.database.prepare('SELECT labels FROM classifications WHERE key = ?').get(key) as
      | { labels: string }
      | undefined;
    return row === undefined ? undefined : (JSON.parse(row.labels) as string[]);
  }

  /** Keeps a classification's answer, so that a text seen before costs no model call. */
  keepClassification(key: string, labels: readonly string[]): void {
    this.database
      .prepare('INSERT OR REPLACE INTO classifications (key, labels) VALUES (?, ?)')
      .run(key, JSON.stringify(labels));
  }

  /** Every demonstration, oldest first. */
  all(): Demonstration[] {
    return this.indexed.map((item) => item.demonstration);
  }

  /** Adds demonstrations from a JSON file (a list of `{ request, input, output, plan, code, label }`) as seeds. */
  async seed(file: string): Promise<number> {
    const list = parseInput(seedSchema, parseJsonText(await readFile(file, 'utf8'), file), file);
    this.add(...list.map((item) => ({ ...item, source: 'seed' as const })));
    return list.length;
  }

  /** Closes the database. */
  close(): void {
    this.database.close();
  }
}
