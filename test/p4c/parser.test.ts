// Targeted parser behaviour: precedence, casts and generics, the `>>`
// ambiguity, type names in expressions, keysets, tables, statements,
// annotations, and spans.
import { describe, expect, it } from 'vitest';
import {
  annotationBodyText,
  DiagnosticBag,
  parseAnnotationBody,
  walk,
  type ControlDeclaration,
  type Declaration,
  type Expression,
  type ParserDeclaration,
  type TableDeclaration,
} from '../../src/p4c/index.js';
import { parseText, V1MODEL } from './helpers.js';

/** A compact view of an expression tree: `(+ a (* b c))`. */
function sexpr(e: Expression): string {
  switch (e.kind) {
    case 'IntegerLiteral':
      return `${e.width ?? ''}${e.width === null ? '' : e.signed ? 's' : 'w'}${e.value}`;
    case 'BooleanLiteral':
      return String(e.value);
    case 'StringLiteral':
      return JSON.stringify(e.value);
    case 'PathExpression':
      return (e.path.absolute ? '.' : '') + e.path.name.text;
    case 'TypeNameExpression':
      return `type:${e.type.kind === 'NamedType' ? e.type.path.name.text : e.type.kind}`;
    case 'ThisExpression':
      return 'this';
    case 'MemberExpression':
      return `${sexpr(e.target)}.${e.member.text}`;
    case 'IndexExpression':
      return `${sexpr(e.target)}[${sexpr(e.index)}]`;
    case 'SliceExpression':
      return `${sexpr(e.target)}[${sexpr(e.high)}:${sexpr(e.low)}]`;
    case 'UnaryExpression':
      return `(${e.operator} ${sexpr(e.operand)})`;
    case 'BinaryExpression':
      return `(${e.operator} ${sexpr(e.left)} ${sexpr(e.right)})`;
    case 'ConditionalExpression':
      return `(? ${sexpr(e.condition)} ${sexpr(e.whenTrue)} ${sexpr(e.whenFalse)})`;
    case 'CastExpression':
      return `(cast ${e.type.kind === 'NamedType' ? e.type.path.name.text : e.type.kind} ${sexpr(e.operand)})`;
    case 'CallExpression':
      return `(call ${sexpr(e.callee)}${e.typeArgs.length ? `<${e.typeArgs.map((t) => t.kind).join(',')}>` : ''} ${e.args.map((a) => (a.name ? `${a.name.text}=` : '') + sexpr(a.value)).join(' ')})`.replace(' )', ')');
    case 'ConstructorCallExpression':
      return `(new ${e.type.kind === 'NamedType' ? e.type.path.name.text : 'generic'} ${e.args.map((a) => sexpr(a.value)).join(' ')})`;
    case 'ListExpression':
      return `{${e.elements.map(sexpr).join(' ')}}`;
    case 'StructExpression':
      return `{${e.fields.map((f) => `${f.name.text}=${sexpr(f.value)}`).join(' ')}}`;
    case 'MaskExpression':
      return `(&&& ${sexpr(e.value)} ${sexpr(e.mask)})`;
    case 'RangeExpression':
      return `(.. ${sexpr(e.low)} ${sexpr(e.high)})`;
    case 'DefaultExpression':
      return 'default';
    case 'DontCareExpression':
      return '_';
  }
}

const PRELUDE = 'typedef bit<8> T8;\nheader h_t { bit<8> f; }\nenum Color { Red, Green }\nextern void generic<X>(in X x);\n';

/** Parses `expression` as the value of a constant, with a few types declared. */
function expr(expression: string): string {
  const { ast, diagnostics } = parseText(`${PRELUDE}const bit<8> X = ${expression};`);
  expect(diagnostics.map((d) => d.message)).toEqual([]);
  const last = ast.declarations[ast.declarations.length - 1]!;
  if (last.kind !== 'ConstantDeclaration') throw new Error(`parsed ${last.kind}`);
  return sexpr(last.value);
}

function declarations(text: string): Declaration[] {
  const { ast, diagnostics } = parseText(text);
  expect(diagnostics.map((d) => `${d.span?.start.line}:${d.span?.start.column} ${d.message}`)).toEqual([]);
  return [...ast.declarations];
}

describe('expression precedence (P4-16, not C)', () => {
  it.each([
    ['a + b * c', '(+ a (* b c))'],
    ['a - b - c', '(- (- a b) c)'],
    ['a ++ b + c', '(+ (++ a b) c)'],
    ['a |+| b |-| c', '(|-| (|+| a b) c)'],
    ['a << 1 + 2', '(<< a (+ 1 2))'],
    ['a & b == c', '(== (& a b) c)'],
    ['a | b ^ c & d', '(| a (^ b (& c d)))'],
    ['a == b < c', '(== a (< b c))'],
    ['a < b | c', '(< a (| b c))'],
    ['a || b && c', '(|| a (&& b c))'],
    ['a && b == c', '(&& a (== b c))'],
    ['a ? b : c', '(? a b c)'],
    ['a || b ? c : d', '(? (|| a b) c d)'],
    ['a ? b : c ? d : e', '(? (? a b c) d e)'],
    ['a ? b ? c : d : e', '(? a (? b c d) e)'],
    ['a ? b : c || d', '(? a b (|| c d))'],
    ['-a.b', '(- a.b)'],
    ['-a * b', '(* (- a) b)'],
    ['!a && ~b', '(&& (! a) (~ b))'],
    ['- -a', '(- (- a))'],
    ['(a + b) * c', '(* (+ a b) c)'],
  ])('%s', (source, tree) => {
    expect(expr(source)).toBe(tree);
  });

  it('reads >> as a shift only when the two > touch', () => {
    expect(expr('a >> 2')).toBe('(>> a 2)');
    expect(expr('a >> 2 > b')).toBe('(> (>> a 2) b)');
    expect(expr('a >= b')).toBe('(>= a b)');
  });
});

describe('casts, calls, generics and type names', () => {
  it.each([
    ['(bit<8>)a + 1', '(+ (cast BitsType a) 1)'],
    ['(T8)a', '(cast T8 a)'],
    ['(a) + 1', '(+ a 1)'],
    ['(bit<4>)a[7:4]', '(cast BitsType a[7:4])'],
    ['(int<8>)-8s3', '(cast BitsType (- 8s3))'],
    ['f(a, b)', '(call f a b)'],
    ['f()', '(call f)'],
    ['f(x = 1, y = a)', '(call f x=1 y=a)'],
    ['f(_, a)', '(call f _ a)'],
    ['generic<bit<8>>(a)', '(call generic<BitsType> a)'],
    ['p.lookahead<h_t>().f', '(call p.lookahead<NamedType>).f'],
    ['generic<T8>(a)', '(call generic<NamedType> a)'],
    ['a < b', '(< a b)'],
    ['Color.Red', 'type:Color.Red'],
    ['error.NoMatch', 'type:ErrorType.NoMatch'],
    ['.a + b', '(+ .a b)'],
    ['t.apply().hit', '(call t.apply).hit'],
    ['s.next.f', 's.next.f'],
    ['s[a + 1].f', 's[(+ a 1)].f'],
    ['{ a, b + 1 }', '{a (+ b 1)}'],
    ['{ x = 1, y = a }', '{x=1 y=a}'],
    ['{ }', '{}'],
    ['this.get()', '(call this.get)'],
    ['"text"', '"text"'],
    ['true && false', '(&& true false)'],
  ])('%s', (source, tree) => {
    expect(expr(source)).toBe(tree);
  });

  it('rejects a type name used as a value', () => {
    const { diagnostics } = parseText(`${PRELUDE}const bit<8> X = T8 + 1;`);
    expect(diagnostics.map((d) => d.message)).toEqual(["'T8' is a type, not a value"]);
  });
});

describe('statements', () => {
  const body = (statements: string) => {
    const decls = declarations(`${PRELUDE}control C(inout h_t h) {\n  apply {\n${statements}\n  }\n}`);
    return (decls[decls.length - 1] as ControlDeclaration).apply.body;
  };

  it('tells declarations from statements by whether a name is a type', () => {
    const items = body('T8 x;\nT8 y = 1;\nunknown_t z;\nh_t[2] s;\nx = 1;\nf(x);\nC.apply(h);\nColor c = Color.Red;\n');
    expect(items.map((i) => i.kind)).toEqual([
      'VariableDeclaration',
      'VariableDeclaration',
      'VariableDeclaration',
      'VariableDeclaration',
      'AssignmentStatement',
      'CallStatement',
      'CallStatement',
      'VariableDeclaration',
    ]);
  });

  it('lets a value shadow a type name in its scope, as p4c does', () => {
    const decls = declarations(
      V1MODEL +
        'control C(inout bit<32> x) {\n' +
        '    action a(bit<32> meter) { x = meter; }\n' +
        '    meter(32w4, MeterType.bytes) m;\n' +
        '    apply {\n' +
        '        {\n' +
        '            bit<32> counter = 1;\n' +
        '            counter = counter + x;\n' +
        '        }\n' +
        '        counter(32w1, CounterType.packets) c;\n' +
        '    }\n' +
        '}\n',
    );
    const control = decls[decls.length - 1] as ControlDeclaration;
    // `meter` is the action's parameter inside the action, the extern type after it.
    expect(control.locals.map((l) => l.kind)).toEqual(['ActionDeclaration', 'Instantiation']);
    const [block, instance] = control.apply.body;
    expect(block!.kind === 'BlockStatement' && block.body.map((s) => s.kind)).toEqual(['VariableDeclaration', 'AssignmentStatement']);
    // Outside the block `counter` is the extern type again.
    expect(instance!.kind).toBe('Instantiation');
  });

  it('parses if/else chains, switch with fall-through, return, exit and blocks', () => {
    const items = body(
      'if (a) x = 1; else if (b) { x = 2; } else { x = 3; }\n' +
        'switch (t.apply().action_run) { a1: { } a2: default: { exit; } }\n' +
        'switch (x) { 1: { return; } }\n' +
        '@atomic { x = x + 1; }\n;',
    );
    expect(items.map((i) => i.kind)).toEqual(['IfStatement', 'SwitchStatement', 'SwitchStatement', 'BlockStatement', 'EmptyStatement']);
    const sw = items[1]!;
    expect(sw.kind === 'SwitchStatement' && sw.cases.map((c) => `${sexpr(c.label)}:${c.body ? 'block' : 'falls'}`)).toEqual([
      'a1:block',
      'a2:falls',
      'default:block',
    ]);
    const block = items[3]!;
    expect(block.kind === 'BlockStatement' && block.annotations.map((a) => a.name.text)).toEqual(['atomic']);
  });
});

describe('parsers and keysets', () => {
  it('reads select cases: values, masks, ranges, default, _, tuples and value sets', () => {
    const decls = declarations(
      'parser P(in bit<16> t, in bit<8> u) {\n' +
        '  value_set<bit<16>>(4) vs;\n' +
        '  state start {\n' +
        '    transition select(t, u) {\n' +
        '      (1, 2): a;\n' +
        '      (0x800 &&& 0xf00, 0 .. 7): a;\n' +
        '      (_, default): a;\n' +
        '      (5 &&& 7): a;\n' +
        '      vs: a;\n' +
        '      (t + 1): a;\n' +
        '      default: accept;\n' +
        '    }\n' +
        '  }\n' +
        '  state a { transition reject; }\n' +
        '}',
    );
    const parser = decls[0] as ParserDeclaration;
    expect(parser.locals.map((l) => l.kind)).toEqual(['ValueSetDeclaration']);
    const transition = parser.states[0]!.transition!;
    expect(transition.kind).toBe('SelectExpression');
    if (transition.kind !== 'SelectExpression') return;
    expect(transition.selectors.map(sexpr)).toEqual(['t', 'u']);
    expect(transition.cases.map((c) => `${sexpr(c.keyset)} -> ${c.state.path.name.text}`)).toEqual([
      '{1 2} -> a',
      '{(&&& 2048 3840) (.. 0 7)} -> a',
      '{_ default} -> a',
      '{(&&& 5 7)} -> a',
      'vs -> a',
      '(+ t 1) -> a',
      'default -> accept',
    ]);
    expect(parser.states[1]!.transition).toMatchObject({ kind: 'PathExpression', path: { name: { text: 'reject' } } });
  });
});

describe('tables', () => {
  it('reads every kind of property', () => {
    const decls = declarations(
      'control C() {\n' +
        '  action a(bit<8> p) { }\n' +
        '  table t {\n' +
        '    key = { h.f: exact @name("f"); h.g & 0xf: ternary; }\n' +
        '    actions = { a; @defaultonly .NoAction(); }\n' +
        '    const default_action = a(1);\n' +
        '    size = 1024;\n' +
        '    implementation = sel;\n' +
        '    @my_prop custom = { 1, 2 };\n' +
        '    support_timeout = true;\n' +
        '    const entries = {\n' +
        '      priority = 10: (1, 2 &&& 3): a(4);\n' +
        '      (5, _): a(6) @priority(1);\n' +
        '      const 7: a(8);\n' +
        '    }\n' +
        '  }\n' +
        '  apply { t.apply(); }\n' +
        '}',
    );
    const table = (decls[0] as ControlDeclaration).locals[1] as TableDeclaration;
    expect(table.properties.map((p) => (p.kind === 'ValueProperty' ? `${p.isConst ? 'const ' : ''}${p.name.text}` : p.kind))).toEqual([
      'KeyProperty',
      'ActionsProperty',
      'const default_action',
      'size',
      'implementation',
      'custom',
      'support_timeout',
      'EntriesProperty',
    ]);
    const [key, actions, , , , custom, , entries] = table.properties;
    expect(key!.kind === 'KeyProperty' && key.elements.map((k) => `${sexpr(k.expression)}:${k.matchKind.text}:${k.annotations.length}`)).toEqual([
      'h.f:exact:1',
      '(& h.g 15):ternary:0',
    ]);
    expect(actions!.kind === 'ActionsProperty' && actions.actions.map((a) => `${a.action.path.absolute ? '.' : ''}${a.action.path.name.text}/${a.args === null ? 'bare' : a.args.length}/${a.annotations.length}`)).toEqual([
      'a/bare/0',
      '.NoAction/0/1',
    ]);
    expect(custom!.kind === 'ValueProperty' && custom.annotations.map((a) => a.name.text)).toEqual(['my_prop']);
    expect(entries!.kind === 'EntriesProperty' && entries.isConst).toBe(true);
    if (entries!.kind !== 'EntriesProperty') return;
    expect(entries.entries.map((e) => `${e.isConst ? 'const ' : ''}${e.priority ? sexpr(e.priority) + ': ' : ''}${e.keyset.map(sexpr).join(',')} -> ${e.action.action.path.name.text}(${e.action.args!.map((a) => sexpr(a.value))}) ${e.annotations.map((a) => a.name.text)}`)).toEqual([
      '10: 1,(&&& 2 3) -> a(4) ',
      '5,_ -> a(6) priority',
      'const 7 -> a(8) ',
    ]);
  });

  it('still reads `priority` as a plain name elsewhere', () => {
    expect(expr('sm.priority + priority')).toBe('(+ sm.priority priority)');
  });
});

describe('declarations', () => {
  it('reads types, externs, functions and instantiations', () => {
    const decls = declarations(
      'header_union U { h_t a; }\n' +
        'header h_t { bit<8> f; varbit<32> v; }\n' +
        'struct S<T> { T x; tuple<bit<8>, bool> t; }\n' +
        'enum bit<8> E { A = 1, B = 2 }\n' +
        'enum F { X, Y, }\n' +
        'typedef bit<32> u32;\n' +
        'type bit<32> Id_t;\n' +
        'typedef header hh_t { bit<8> g; } hh_alias;\n' +
        'error { Oops }\n' +
        'match_kind { fancy }\n' +
        'extern Ext<W> { Ext(bit<32> n); Ext(); W get(); abstract void cb(in W w); }\n' +
        'extern T pick<T>(in T a, in T b);\n' +
        'extern Fwd;\n' +
        'bit<8> inc(in bit<8> x) { return x + 1; }\n' +
        'parser P(out h_t h);\n' +
        'control Q<H>(inout H h)(bit<8> k) { apply { } }\n' +
        'package Pkg<H>(Q<H> q);\n' +
        'Pkg(Q<h_t>(8w1)) main;\n',
    );
    expect(decls.map((d) => `${d.kind}:${'name' in d ? d.name.text : ''}`)).toEqual([
      'HeaderUnionDeclaration:U',
      'HeaderDeclaration:h_t',
      'StructDeclaration:S',
      'EnumDeclaration:E',
      'EnumDeclaration:F',
      'TypedefDeclaration:u32',
      'TypedefDeclaration:Id_t',
      'TypedefDeclaration:hh_alias',
      'ErrorDeclaration:',
      'MatchKindDeclaration:',
      'ExternDeclaration:Ext',
      'ExternFunctionDeclaration:pick',
      'FunctionDeclaration:inc',
      'ParserTypeDeclaration:P',
      'ControlDeclaration:Q',
      'PackageTypeDeclaration:Pkg',
      'Instantiation:main',
    ]);
    const ext = decls[10]!;
    expect(ext.kind === 'ExternDeclaration' && ext.methods.map((m) => `${m.isConstructor ? 'ctor ' : ''}${m.isAbstract ? 'abstract ' : ''}${m.name.text}`)).toEqual([
      'ctor Ext',
      'ctor Ext',
      'get',
      'abstract cb',
    ]);
    const main = decls[16]!;
    expect(main.kind === 'Instantiation' && main.args.map((a) => sexpr(a.value))).toEqual(['(new generic 8w1)']);
  });
});

describe('annotations', () => {
  it('keeps unparsed bodies as tokens and reads bracketed bodies as expressions', () => {
    const [decl] = declarations('@name("x.y") @id(0x01000005) @hidden @field_list(1,  2) @a[1, b + 1] @kv[k = 1, v = "s"] action a() { }');
    expect(decl!.kind).toBe('ActionDeclaration');
    if (decl!.kind !== 'ActionDeclaration') return;
    const [name, id, hidden, fieldList, list, kv] = decl.annotations;
    expect(annotationBodyText(name!)).toBe('"x.y"');
    expect(annotationBodyText(id!)).toBe('0x01000005');
    expect(hidden!.body).toEqual({ kind: 'Empty' });
    expect(annotationBodyText(fieldList!)).toBe('1, 2');
    expect(list!.body.kind === 'ExpressionList' && list!.body.expressions.map(sexpr)).toEqual(['1', '(+ b 1)']);
    expect(kv!.body.kind === 'KeyValueList' && kv!.body.pairs.map((p) => `${p.name.text}=${sexpr(p.value)}`)).toEqual(['k=1', 'v="s"']);

    const bag = new DiagnosticBag();
    expect(parseAnnotationBody(fieldList!, bag)!.map(sexpr)).toEqual(['1', '2']);
    expect(parseAnnotationBody(name!, bag)!.map(sexpr)).toEqual(['"x.y"']);
    expect(parseAnnotationBody(id!, bag)!.map(sexpr)).toEqual(['16777221']);
    expect(parseAnnotationBody(hidden!, bag)).toEqual([]);
    expect(bag.all()).toEqual([]);
  });

  it('reports an annotation body that is not an expression list, at its position', () => {
    const [decl] = declarations('@odd(1 2) action a() { }');
    if (decl!.kind !== 'ActionDeclaration') throw new Error('expected an action');
    const bag = new DiagnosticBag();
    expect(parseAnnotationBody(decl.annotations[0]!, bag)).toBeNull();
    expect(bag.all().map((d) => `${d.span!.start.line}:${d.span!.start.column} ${d.message}`)).toEqual([
      "1:8 expected ',' or the end of the annotation, found integer 2",
    ]);
  });
});

describe('spans', () => {
  it('gives every node of a program a span inside its file', () => {
    const text = `${PRELUDE}control C(inout h_t h) {\n  action a(bit<8> p) { h.f = p + 1; }\n  apply { if (h.isValid()) { a(2); } }\n}`;
    const { ast } = parseText(text);
    let count = 0;
    walk(ast, (node) => {
      count++;
      const { start, end, file } = node.span;
      expect(file === 'test.p4' || file.endsWith('.p4')).toBe(true);
      expect(end.offset).toBeGreaterThanOrEqual(start.offset);
      if (file === 'test.p4') expect(end.offset).toBeLessThanOrEqual(text.length);
    });
    expect(count).toBeGreaterThan(50);
  });

  it('spans a binary expression from its left to its right operand', () => {
    const { ast } = parseText('const bit<8> X = a  +  bc;');
    const decl = ast.declarations[0]!;
    expect(decl.kind === 'ConstantDeclaration' && decl.value.span).toMatchObject({
      start: { line: 1, column: 18 },
      end: { line: 1, column: 26 },
    });
  });
});
