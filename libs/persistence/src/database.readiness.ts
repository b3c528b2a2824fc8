import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { DependencyState, ReadinessCheck } from '@hostboard/core';

@Injectable()
export class DatabaseReadiness implements ReadinessCheck {
  readonly name = 'database';
  /** Every request reads or writes it: without it the api serves nothing. */
  readonly required = true;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async check(): Promise<DependencyState> {
    await this.dataSource.query('SELECT 1');
    return 'ok';
  }
}
