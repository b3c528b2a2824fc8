import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IN_MEMORY, openDataSource, schemaDrift } from '@hostboard/persistence';

const MIGRATIONS_DIR = resolve('libs/persistence/src/migrations');

/** Exit code 1 with the SQL when the entities need more than the migrations give; 0 when they agree. */
export async function migrationCheck(databaseUrl: string | undefined): Promise<number> {
  const { dataSource } = await openDataSource({ databaseUrl, dataDir: IN_MEMORY });
  try {
    const { up } = await schemaDrift(dataSource);
    if (up.length === 0) {
      process.stdout.write(`migrations match the entities (${databaseUrl ? 'PostgreSQL' : 'embedded PostgreSQL'})\n`);
      return 0;
    }
    process.stdout.write(`the entities need a new migration:\n${up.map((q) => `  ${q};`).join('\n')}\n`);
    return 1;
  } finally {
    await dataSource.destroy();
  }
}

/** Writes a migration with what the entities need beyond the current migrations, and lists it in index.ts. */
export async function migrationGenerate(name: string): Promise<number> {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
    process.stderr.write('usage: npm run cli -- migration-generate <PascalCaseName>\n');
    return 2;
  }
  const { dataSource } = await openDataSource({ dataDir: IN_MEMORY });
  const { up, down } = await schemaDrift(dataSource).finally(() => dataSource.destroy());
  if (up.length === 0) {
    process.stdout.write('nothing to generate: migrations match the entities\n');
    return 0;
  }
  const stamp = Date.now(); // a file name for a developer, not a domain instant
  const className = `${name}${stamp}`;
  const q = (sql: string): string => `    await queryRunner.query(\`${sql.replace(/`/g, '\\`')}\`);`;
  const body = `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${up.map(q).join('\n')}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${[...down].reverse().map(q).join('\n')}
  }
}
`;
  const file = join(MIGRATIONS_DIR, `${stamp}-${name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}.ts`);
  writeFileSync(file, body);
  writeIndex();
  process.stdout.write(`wrote ${file}\n`);
  return 0;
}

function writeIndex(): void {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d+-.*\.ts$/.test(f))
    .sort();
  const classes = files.map((f) => {
    const [stamp, ...rest] = f.replace(/\.ts$/, '').split('-');
    const pascal = rest.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
    return { file: f.replace(/\.ts$/, '.js'), cls: `${pascal}${stamp}` };
  });
  const text = `import type { MigrationInterface } from 'typeorm';
${classes.map((c) => `import { ${c.cls} } from './${c.file}';`).join('\n')}

/** Every migration, oldest first. Add a new one with \`npm run cli -- migration-generate <Name>\`. */
export const MIGRATIONS: Array<new () => MigrationInterface> = [${classes.map((c) => c.cls).join(', ')}];
`;
  writeFileSync(join(MIGRATIONS_DIR, 'index.ts'), text);
}
