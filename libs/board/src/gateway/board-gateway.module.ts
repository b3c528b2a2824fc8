import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { AuthModule } from '@hostboard/auth';
import { BoardGateway } from './board.gateway.js';
import { BoardHandshakeLimiter } from './board-handshake.limiter.js';
import { BoardSocketLimiter } from './board-socket.limiter.js';
import { SnapshotReads } from './snapshot-reads.js';

/** The board socket, given the module that provides BoardSnapshotSource (the app decides which). */
@Module({})
export class BoardGatewayModule {
  static forRoot(snapshots: Type): DynamicModule {
    return {
      module: BoardGatewayModule,
      imports: [AuthModule, snapshots],
      providers: [
        BoardGateway,
        SnapshotReads,
        BoardHandshakeLimiter,
        { provide: BoardSocketLimiter, useFactory: () => new BoardSocketLimiter() },
      ],
    };
  }
}
