import { PGlite } from '@electric-sql/pglite';
import { PreparedStatements } from './prepared-statements.js';

/** The embedded database's parameterised queries, as named prepared statements on one real PGlite session. */
describe('PreparedStatements (embedded PostgreSQL)', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(`
      CREATE TYPE mood AS ENUM ('calm', 'busy');
      CREATE TABLE t (id int PRIMARY KEY, at timestamptz, tags text[], doc jsonb, mood mood, big bigint, ok boolean);`);
  });
  afterAll(() => db.close());

  const count = async (): Promise<number> =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]!.n;

  it('gives the same rows and types as PGlite.query, parsing each text once', async () => {
    const s = new PreparedStatements(db);
    const at = new Date('2026-12-03T13:36:21.123Z');
    const insert = 'INSERT INTO t (id, at, tags, doc, mood, big, ok) VALUES ($1, $2, $3, $4, $5, $6, $7)';
    for (let id = 1; id <= 3; id++) {
      const r = await s.query(insert, [id, at, ['a', 'b c'], { n: id, list: [1, 2] }, 'busy', 9007199254740993n, id % 2 === 0]);
      expect(r.affectedRows).toBe(1);
    }
    const select = 'SELECT id, at, tags, doc, mood, big, ok FROM t WHERE id = $1 AND at = $2';
    const ours = await s.query(select, [2, at]);
    const theirs = await db.query(select, [2, at]);
    expect(ours.rows).toEqual(theirs.rows);
    expect(ours.rows[0]).toEqual({ id: 2, at, tags: ['a', 'b c'], doc: { n: 2, list: [1, 2] }, mood: 'busy', big: 9007199254740993n, ok: true });
    expect(ours.fields.map((f) => f.name)).toEqual(['id', 'at', 'tags', 'doc', 'mood', 'big', 'ok']);
    // Two texts, each prepared once however often it ran.
    expect(s.size).toBe(2);
    expect(await count()).toBe(2);
    expect((await s.query('SELECT id FROM t WHERE id = $1', [null])).rows).toEqual([]);
  });

  it('answers a bad text or value with PostgreSQL’s error and keeps working, in and out of a transaction', async () => {
    const s = new PreparedStatements(db);
    await expect(s.query('SELEC id FROM t WHERE id = $1', [1])).rejects.toMatchObject({ code: '42601' });
    await expect(s.query('SELECT id FROM t WHERE id = $1', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    await db.exec('BEGIN');
    await expect(s.query('INSERT INTO t (id) VALUES ($1)', [1])).rejects.toMatchObject({ code: '23505' });
    await expect(s.query('SELECT id FROM t WHERE id = $1', [1])).rejects.toMatchObject({ code: '25P02' });
    await db.exec('ROLLBACK');
    expect((await s.query('SELECT id FROM t WHERE id = $1', [1])).rows).toEqual([{ id: 1 }]);
  });

  it('closes the least recently used statement past its limit', async () => {
    const before = await count();
    const s = new PreparedStatements(db, 3);
    for (let i = 0; i < 10; i++) expect((await s.query(`SELECT $1::int + ${i} AS n`, [1])).rows).toEqual([{ n: 1 + i }]);
    expect(s.size).toBe(3);
    expect(await count()).toBe(before + 3);
  });
});
