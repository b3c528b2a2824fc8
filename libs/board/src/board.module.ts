import { Global, Module } from '@nestjs/common';
import { BoardEventWriter } from './board-event.writer.js';
import { BoardPublisher } from './board-publisher.js';

/** Board events: versioned rows written with each change, pushed after commit. */
@Global()
@Module({ providers: [BoardPublisher, BoardEventWriter], exports: [BoardPublisher, BoardEventWriter] })
export class BoardModule {}
