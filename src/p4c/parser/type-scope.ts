/**
 * @fileoverview Which names are types, as far as the parser needs to know.
 *
 * P4's grammar is not context-free: `(x) - 1` is a subtraction but `(T) - 1`
 * a cast, and `T(x) t;` an instantiation but `f(x);` a call, depending on
 * whether the name is a type. Like p4c's parser, we track the type names
 * declared so far (types, externs, parsers, controls, packages, and type
 * parameters while they are in scope), and the values (parameters,
 * variables, constants, instances) that shadow a type name in an inner
 * scope, as a local `bit<32> counter;` shadows v1model's extern `counter`.
 * Everything else about names is left to the resolve-names pass.
 */
interface Scope {
  readonly types: Set<string>;
  readonly values: Set<string>;
}

export class TypeScope {
  private readonly scopes: Scope[] = [{ types: new Set(), values: new Set() }];

  isType(name: string): boolean {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const scope = this.scopes[i]!;
      if (scope.values.has(name)) return false;
      if (scope.types.has(name)) return true;
    }
    return false;
  }

  declare(name: string): void {
    const scope = this.scopes[this.scopes.length - 1]!;
    scope.values.delete(name);
    scope.types.add(name);
  }

  /** Declares a value (variable, parameter, constant, instance) in the current scope. */
  declareValue(name: string): void {
    const scope = this.scopes[this.scopes.length - 1]!;
    scope.types.delete(name);
    scope.values.add(name);
  }

  /** Opens a scope (for type parameters, a block's locals); pair with pop(). */
  push(typeNames: Iterable<string> = []): void {
    this.scopes.push({ types: new Set(typeNames), values: new Set() });
  }

  pop(): void {
    if (this.scopes.length > 1) this.scopes.pop();
  }

  /** The current depth, to restore after an error left scopes open. */
  depth(): number {
    return this.scopes.length;
  }

  restore(depth: number): void {
    while (this.scopes.length > depth) this.scopes.pop();
  }
}
