import { DataSource } from 'typeorm';
import { IN_MEMORY } from './embedded-database.js';
import { openDataSource } from '../data-source.factory.js';
import { memoryImage } from '../../../../test/support/memory-image.js';

/**
 * The embedded database has one PostgreSQL session. These are the two failures measured with
 * typeorm-pglite's shared session, checked here against the pool of one that fixes them.
 */
describe('SerialPglitePool (embedded PostgreSQL, one session)', () => {
  let ds: DataSource;

  beforeAll(async () => {
    // From the migrated image (as test apps start): initdb and every migration cost ~9 s of CPU.
    ({ dataSource: ds } = await openDataSource({ dataDir: IN_MEMORY, memoryImage: await memoryImage() }));
    await ds.query('CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)');
    await ds.query('INSERT INTO counter VALUES (1, 0)');
    await ds.query('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
  });
  afterAll(() => ds.destroy());

  it('serialises concurrent read-modify-write transactions: 50 increments give 50', async () => {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        ds.transaction(async (m) => {
          const [row] = (await m.query('SELECT n FROM counter WHERE id = 1 FOR UPDATE')) as Array<{ n: number }>;
          await new Promise((r) => setImmediate(r)); // give another transaction every chance to interleave
          await m.query('UPDATE counter SET n = $1 WHERE id = 1', [(row?.n ?? 0) + 1]);
        }),
      ),
    );
    const [row] = (await ds.query('SELECT n FROM counter WHERE id = 1')) as Array<{ n: number }>;
    expect(row?.n).toBe(50);
  });

  it('keeps a rollback rolled back while another transaction commits, and a plain query never joins an open transaction', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const failing = ds
      .transaction(async (m) => {
        await m.query("INSERT INTO notes (body) VALUES ('rolled back')");
        await gate;
        throw new Error('abort');
      })
      .catch((e: Error) => e.message);
    const committing = ds.transaction(async (m) => {
      await m.query("INSERT INTO notes (body) VALUES ('committed')");
    });
    const plain = ds.query("INSERT INTO notes (body) VALUES ('plain')");
    release();
    expect(await failing).toBe('abort');
    await committing;
    await plain;
    const rows = (await ds.query('SELECT body FROM notes ORDER BY id')) as Array<{ body: string }>;
    expect(rows.map((r) => r.body).sort()).toEqual(['committed', 'plain']);
  });

  it('enforces a btree_gist exclusion constraint as PostgreSQL does', async () => {
    await ds.query(
      'CREATE TABLE slots (t int NOT NULL, during tstzrange NOT NULL, EXCLUDE USING gist (t WITH =, during WITH &&))',
    );
    await ds.query("INSERT INTO slots VALUES (1, tstzrange('2026-10-09 09:00Z', '2026-10-09 10:00Z'))");
    await expect(
      ds.query("INSERT INTO slots VALUES (1, tstzrange('2026-10-09 09:30Z', '2026-10-09 10:30Z'))"),
    ).rejects.toMatchObject({
      driverError: { code: '23P01' },
    });
    await ds.query("INSERT INTO slots VALUES (1, tstzrange('2026-10-09 10:00Z', '2026-10-09 11:00Z'))");
  });
});
