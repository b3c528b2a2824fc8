import { databaseStartupFailure } from './startup-failure.js';

describe('a start-up that failed on DATABASE_URL', () => {
  const url = 'postgres://app:hunter2-secret@db.internal:6543/hostboard';

  it('names the variable and where it points, never the password', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:6543'), { code: 'ECONNREFUSED' });
    expect(databaseStartupFailure(refused, url)).toBe(
      'Cannot reach PostgreSQL at DATABASE_URL (db.internal:6543/hostboard): connect ECONNREFUSED 10.0.0.5:6543. Check the URL and that the server is running.',
    );
    const noDatabase = Object.assign(new Error('database "hostboard" does not exist'), { code: '3D000' });
    expect(databaseStartupFailure(noDatabase, url)).toBe(
      'PostgreSQL refused DATABASE_URL (db.internal:6543/hostboard): database "hostboard" does not exist. Check the database name, user and password in the URL.',
    );
    expect(databaseStartupFailure(noDatabase, url)).not.toContain('hunter2');
  });

  it('leaves any other failure, and the embedded database, to the full error', () => {
    expect(databaseStartupFailure(new TypeError('x is not a function'), url)).toBeNull();
    expect(databaseStartupFailure(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), undefined)).toBeNull();
  });
});
