import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Emitter } from '@socket.io/redis-emitter';
import type { Redis } from 'ioredis';
import { AppConfig, disconnectRedis, publisherRedis } from '@hostboard/core';
import { boardChannelKey } from './board-channel.js';
import { BoardPublisher } from './board-publisher.js';

/**
 * In a process with no socket server (the worker), committed board events still reach every api
 * process's boards: they are emitted into the socket.io Redis adapter's channel.
 */
@Injectable()
export class BoardEmitterRelay implements OnModuleInit, OnModuleDestroy {
  private redis?: Redis;
  private unsubscribe?: () => void;

  constructor(
    private readonly config: AppConfig,
    private readonly publisher: BoardPublisher,
  ) {}

  onModuleInit(): void {
    if (!this.config.REDIS_URL) return;
    // Fails fast while Redis is down, its rejections handled: a lost push is repaired by the boards' resync.
    this.redis = publisherRedis(this.config.REDIS_URL, 'emitter relay');
    const emitter = new Emitter(this.redis, { key: boardChannelKey(this.config.JOBS_PREFIX) }).of('/board');
    this.unsubscribe = this.publisher.subscribe((e) => emitter.to(`venue:${e.venueId}`).emit('board.event', e));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    if (this.redis) disconnectRedis(this.redis);
  }
}
