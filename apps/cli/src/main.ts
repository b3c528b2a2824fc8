import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { StaffAccountService } from '@hostboard/auth';
import { ConfigError, createLogger, DomainException, loadConfig, PinoNestLogger } from '@hostboard/core';
import { CliModule } from './cli.module.js';
import { migrationCheck, migrationGenerate } from './migration.commands.js';

const USAGE = `usage: npm run cli -- <command>
  create-owner --email <email> [--password <password>] [--name <name>]
                           the password from --password or, better, OWNER_PASSWORD in the
                           environment (a command line is shown by ps, npm and shell history)
  migration-check          fail when the entities need a migration the migrations lack
  migration-generate Name  write that migration
`;

async function createOwner(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  });
  // From the environment when not on the command line: npm echoes a script's arguments, and ps shows
  // them to every user of the machine.
  const password = values.password ?? process.env['OWNER_PASSWORD'];
  if (!values.email || !password) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
    logger: new PinoNestLogger(createLogger('warn')),
    // A failed start (a data folder in use) reaches the catch below, which prints it as one line,
    // instead of Nest ending the process itself.
    abortOnError: false,
  });
  try {
    const { created } = await app
      .get(StaffAccountService)
      .ensureAccount({ email: values.email, password, name: values.name ?? 'Owner' }, 'owner-created');
    process.stdout.write(
      created
        ? `created owner ${values.email}; sign in and create a venue\n`
        : `${values.email} already has an account; nothing changed\n`,
    );
    return 0;
  } finally {
    await app.close();
  }
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'create-owner':
      return createOwner(rest);
    case 'migration-check':
      return migrationCheck(loadConfig().DATABASE_URL);
    case 'migration-generate':
      return migrationGenerate(rest[0] ?? '');
    default:
      process.stderr.write(USAGE);
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ConfigError || err instanceof DomainException) process.stderr.write(`${err.message}\n`);
    else process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
