import type { NestFastifyApplication } from '@nestjs/platform-fastify';

export interface ServedRoute {
  method: string;
  path: string;
}

const tables = new WeakMap<NestFastifyApplication, ServedRoute[]>();

/**
 * Notes every route the Fastify router is given from now on (Nest's controllers, Swagger's pages),
 * so the access matrix can hold them against the routes Nest declares. Fastify keeps no public list.
 */
export function recordRoutes(app: NestFastifyApplication): void {
  const table: ServedRoute[] = [];
  tables.set(app, table);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) table.push({ method, path: route.url });
    });
}

/** The routes the app's router serves (HEAD twins of GET routes included, as Fastify adds them). */
export function servedRoutes(app: NestFastifyApplication): ServedRoute[] {
  return [...(tables.get(app) ?? [])];
}
