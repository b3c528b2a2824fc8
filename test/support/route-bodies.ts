import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getMetadataStorage } from 'class-validator';

/**
 * The body each handler validates, read from the class-validator metadata of its @Body() class, so a
 * fuzz can build bodies that pass validation and then carry one hostile value deep into the service
 * (a reservation `start` in 9999 was only found that way). A handler added later is covered as soon
 * as it exists.
 */

export interface FieldShape {
  name: string;
  /** class-validator constraint names on the field (isString, isInt, min, isIn, isUUID, …). */
  rules: Map<string, unknown[]>;
  /** Constraints applied to each element of an array. */
  each: Set<string>;
  optional: boolean;
  /** A @ValidateNested() field's own fields. */
  nested?: FieldShape[];
}

type DtoClass = abstract new (...args: never[]) => unknown;

function shapeOf(dto: DtoClass, seen: Set<DtoClass> = new Set()): FieldShape[] {
  if (seen.has(dto)) return [];
  seen.add(dto);
  const metas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const fields = new Map<string, FieldShape>();
  for (const m of metas) {
    const f: FieldShape = fields.get(m.propertyName) ?? {
      name: m.propertyName,
      rules: new Map(),
      each: new Set(),
      optional: false,
    };
    fields.set(m.propertyName, f);
    const rule = m.name ?? m.type;
    if (m.type === 'conditionalValidation') f.optional = true;
    if (m.type === 'nestedValidation') {
      const type = Reflect.getMetadata('design:type', dto.prototype as object, m.propertyName) as DtoClass | undefined;
      if (type && (type as unknown) !== Object && (type as unknown) !== Array) f.nested = shapeOf(type, seen);
      continue;
    }
    f.rules.set(rule, m.constraints ?? []);
    if (m.each) f.each.add(rule);
  }
  return [...fields.values()];
}

/** Handler (`Controller.method`, as declaredRoutes names it) → the fields of its body, when it has a DTO. */
export function bodyShapes(app: NestFastifyApplication): Map<string, FieldShape[]> {
  const shapes = new Map<string, FieldShape[]>();
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(proto)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { index: number }>;
        const body = Object.entries(args).find(([k]) => k.split(':')[0] === String(RouteParamtypes.BODY));
        if (!body) continue;
        const types = (Reflect.getMetadata('design:paramtypes', proto, name) ?? []) as DtoClass[];
        const dto = types[body[1].index];
        if (dto && (dto as unknown) !== Object) shapes.set(`${controller.name}.${name}`, shapeOf(dto));
      }
    }
  }
  return shapes;
}
