import { METHOD_METADATA, MODULE_PATH, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ApplicationConfig, MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ACCESS_RULE, type AccessRule } from '@hostboard/core';

export interface DeclaredRoute {
  method: string;
  path: string;
  handler: string;
  rule: AccessRule | undefined;
  /** Whether the handler takes a @Body() (the global validation pipe sees it). */
  takesBody: boolean;
}

function joinPath(...parts: Array<string | undefined>): string {
  const segments = parts.map((p) => (p ?? '').replace(/^\/+|\/+$/g, '')).filter((p) => p !== '');
  return `/${segments.join('/')}`;
}

/** A path metadata value (a string, or a list of them; absent for the bare `@Controller()`). */
function asList(v: unknown): string[] {
  if (v === undefined) return [''];
  const list: unknown[] = Array.isArray(v) ? v : [v];
  return list.map((p) => {
    if (typeof p !== 'string') throw new Error(`unexpected path metadata ${JSON.stringify(p)}`);
    return p;
  });
}

/**
 * The routes Nest maps, read from its own module container (so a new route is covered by every test
 * that walks them): controller path x handler path (plus a RouterModule module path and the global
 * prefix, should the app ever use them), with the access rule the guard will read (handler first,
 * then class, as Reflector.getAllAndOverride does).
 */
export function declaredRoutes(app: NestFastifyApplication): DeclaredRoute[] {
  const modules = app.get(ModulesContainer);
  const scanner = new MetadataScanner();
  const config = (app as unknown as { config?: ApplicationConfig }).config;
  if (!(config instanceof ApplicationConfig)) throw new Error('cannot read the application config (global prefix, versioning)');
  if (config.getVersioning()) throw new Error('the app uses versioning: teach declaredRoutes() about version paths');
  const prefix = config.getGlobalPrefix();
  const routes: DeclaredRoute[] = [];
  for (const module of modules.values()) {
    const modulePath: unknown =
      Reflect.getMetadata(MODULE_PATH + modules.applicationId, module.metatype) ??
      Reflect.getMetadata(MODULE_PATH, module.metatype);
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(proto)) {
        const fn = proto[name] as object;
        const methodPath: unknown = Reflect.getMetadata(PATH_METADATA, fn);
        if (methodPath === undefined) continue;
        const requestMethod = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod;
        const rule = (Reflect.getMetadata(ACCESS_RULE, fn) ?? Reflect.getMetadata(ACCESS_RULE, controller)) as
          AccessRule | undefined;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, unknown>;
        const takesBody = Object.keys(args).some((k) => k.split(':')[0] === String(RouteParamtypes.BODY));
        for (const ctrlPath of asList(Reflect.getMetadata(PATH_METADATA, controller))) {
          for (const mPath of asList(methodPath)) {
            routes.push({
              method: RequestMethod[requestMethod],
              path: joinPath(prefix, typeof modulePath === 'string' ? modulePath : undefined, ctrlPath, mPath),
              handler: `${controller.name}.${name}`,
              rule,
              takesBody,
            });
          }
        }
      }
    }
  }
  return routes;
}
