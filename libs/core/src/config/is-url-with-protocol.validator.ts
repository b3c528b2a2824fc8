import { registerDecorator, type ValidationArguments } from 'class-validator';

/** A URL that parses and uses one of the given protocols; the message never echoes a password. */
export function IsUrlWithProtocol(protocols: string[]): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isUrlWithProtocol',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'string') return false;
          try {
            const url = new URL(value);
            return protocols.includes(url.protocol) && url.hostname !== '';
          } catch {
            return false;
          }
        },
        defaultMessage(args: ValidationArguments): string {
          return `${args.property} must be a URL like ${protocols[0]}//host:port/… (it could not be parsed as one)`;
        },
      },
    });
  };
}
