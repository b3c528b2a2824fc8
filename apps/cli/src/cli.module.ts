import { Module, type DynamicModule } from '@nestjs/common';
import { AuthModule } from '@hostboard/auth';
import { AppConfig, CoreModule } from '@hostboard/core';
import { PersistenceModule } from '@hostboard/persistence';

@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [CoreModule.forRoot({ config }), PersistenceModule.forRoot(), AuthModule] };
  }
}
