import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ReadinessCheck } from '@hostboard/core';

@Injectable()
export class DatabaseReadiness implements ReadinessCheck {
  readonly name = 'database';

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async check(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
