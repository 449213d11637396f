/**
 * @fileoverview Declarations: types, externs, parsers, controls, actions
 * and tables.
 */
import type {
  ControlDeclaration,
  Declaration,
  EnumDeclaration,
  MethodPrototype,
  ParserDeclaration,
  ParserState,
  StructLikeDeclaration,
  TableDeclaration,
} from '../ast/declarations.js';
import type { ActionReference, TableProperty } from '../ast/tables.js';
import {
  printAnnotations,
  printArguments,
  printExpression,
  printKeyset,
  printParameters,
  printPath,
  printType,
  printTypeParameters,
} from './expressions.js';
import { printBlock, printConstant, printFunction, printInstantiation, printStatementOrDeclaration, printVariable } from './statements.js';
import type { SourceWriter } from './writer.js';

const STRUCT_KEYWORD = { HeaderDeclaration: 'header', HeaderUnionDeclaration: 'header_union', StructDeclaration: 'struct' } as const;

export function printDeclaration(w: SourceWriter, d: Declaration): void {
  switch (d.kind) {
    case 'ConstantDeclaration':
      return printConstant(w, d);
    case 'VariableDeclaration':
      return printVariable(w, d);
    case 'Instantiation':
      return printInstantiation(w, d);
    case 'FunctionDeclaration':
      return printFunction(w, d);
    case 'HeaderDeclaration':
    case 'HeaderUnionDeclaration':
    case 'StructDeclaration':
      return printStructLike(w, d, printAnnotations(d.annotations));
    case 'EnumDeclaration':
      return printEnum(w, d, printAnnotations(d.annotations));
    case 'ErrorDeclaration':
    case 'MatchKindDeclaration':
      w.line(d.kind === 'ErrorDeclaration' ? 'error {' : 'match_kind {');
      w.indented(() => d.members.forEach((m, i) => w.line(m.text + (i < d.members.length - 1 ? ',' : ''))));
      w.line('}');
      return;
    case 'TypedefDeclaration': {
      const head = `${printAnnotations(d.annotations)}${d.isNewType ? 'type' : 'typedef'} `;
      const type = d.type;
      if (type.kind === 'EnumDeclaration') printEnum(w, type, head);
      else if ('fields' in type) printStructLike(w, type, head);
      else {
        w.line(`${head}${printType(type)} ${d.name.text};`);
        return;
      }
      w.appendToLast(` ${d.name.text};`);
      return;
    }
    case 'ExternDeclaration':
      w.line(`${printAnnotations(d.annotations)}extern ${d.name.text}${printTypeParameters(d.typeParams)} {`);
      w.indented(() => d.methods.forEach((m) => w.line(printMethod(m))));
      w.line('}');
      return;
    case 'ExternFunctionDeclaration':
      w.line(
        `${printAnnotations(d.annotations)}extern ${printType(d.returnType)} ${d.name.text}${printTypeParameters(d.typeParams)}(${printParameters(d.params)});`,
      );
      return;
    case 'ActionDeclaration':
      printBlock(w, d.body, `${printAnnotations(d.annotations)}action ${d.name.text}(${printParameters(d.params)}) `);
      return;
    case 'TableDeclaration':
      return printTable(w, d);
    case 'ValueSetDeclaration':
      w.line(`${printAnnotations(d.annotations)}value_set<${printType(d.elementType)}>(${printExpression(d.size)}) ${d.name.text};`);
      return;
    case 'ParserTypeDeclaration':
    case 'ControlTypeDeclaration':
    case 'PackageTypeDeclaration': {
      const keyword = d.kind === 'ParserTypeDeclaration' ? 'parser' : d.kind === 'ControlTypeDeclaration' ? 'control' : 'package';
      w.line(`${printAnnotations(d.annotations)}${keyword} ${d.name.text}${printTypeParameters(d.typeParams)}(${printParameters(d.params)});`);
      return;
    }
    case 'ParserDeclaration':
      return printParser(w, d);
    case 'ControlDeclaration':
      return printControl(w, d);
  }
}

function printStructLike(w: SourceWriter, d: StructLikeDeclaration, head: string): void {
  w.line(`${head}${STRUCT_KEYWORD[d.kind]} ${d.name.text}${printTypeParameters(d.typeParams)} {`);
  w.indented(() => d.fields.forEach((f) => w.line(`${printAnnotations(f.annotations)}${printType(f.type)} ${f.name.text};`)));
  w.line('}');
}

function printEnum(w: SourceWriter, d: EnumDeclaration, head: string): void {
  const underlying = d.underlyingType ? `${printType(d.underlyingType)} ` : '';
  w.line(`${head}enum ${underlying}${d.name.text} {`);
  w.indented(() =>
    d.members.forEach((m, i) => {
      const value = m.value ? ` = ${printExpression(m.value)}` : '';
      w.line(`${m.name.text}${value}${i < d.members.length - 1 ? ',' : ''}`);
    }),
  );
  w.line('}');
}

function printMethod(m: MethodPrototype): string {
  const annotations = printAnnotations(m.annotations);
  if (m.isConstructor) return `${annotations}${m.name.text}(${printParameters(m.params)});`;
  const abstract = m.isAbstract ? 'abstract ' : '';
  return `${annotations}${abstract}${printType(m.returnType!)} ${m.name.text}${printTypeParameters(m.typeParams)}(${printParameters(m.params)});`;
}

function blockHead(d: ParserDeclaration | ControlDeclaration, keyword: string): string {
  const constructorParams = d.constructorParams.length > 0 ? `(${printParameters(d.constructorParams)})` : '';
  return `${printAnnotations(d.annotations)}${keyword} ${d.name.text}${printTypeParameters(d.typeParams)}(${printParameters(d.params)})${constructorParams} {`;
}

function printParser(w: SourceWriter, d: ParserDeclaration): void {
  w.line(blockHead(d, 'parser'));
  w.indented(() => {
    d.locals.forEach((local) => printDeclaration(w, local));
    d.states.forEach((state) => printState(w, state));
  });
  w.line('}');
}

function printState(w: SourceWriter, s: ParserState): void {
  w.line(`${printAnnotations(s.annotations)}state ${s.name.text} {`);
  w.indented(() => {
    s.body.forEach((item) => printStatementOrDeclaration(w, item));
    const t = s.transition;
    if (!t) return;
    if (t.kind === 'PathExpression') {
      w.line(`transition ${printPath(t.path)};`);
      return;
    }
    w.line(`transition select(${t.selectors.map((e) => printExpression(e)).join(', ')}) {`);
    w.indented(() =>
      t.cases.forEach((c) => {
        const k = c.keyset;
        const tuple = k.kind === 'ListExpression' && (k.elements.length > 1 || (k.elements.length === 1 && isReducedKeyset(k.elements[0]!.kind)));
        // A tuple keyset is a ListExpression; `{ x }` (a list written as an expression) stays in braces.
        const keyset = tuple ? `(${k.elements.map((e) => printExpression(e)).join(', ')})` : printExpression(k);
        w.line(`${keyset}: ${printPath(c.state.path)};`);
      }),
    );
    w.line('}');
  });
  w.line('}');
}

function isReducedKeyset(kind: string): boolean {
  return kind === 'MaskExpression' || kind === 'RangeExpression' || kind === 'DefaultExpression' || kind === 'DontCareExpression';
}

function printControl(w: SourceWriter, d: ControlDeclaration): void {
  w.line(blockHead(d, 'control'));
  w.indented(() => {
    d.locals.forEach((local) => printDeclaration(w, local));
    printBlock(w, d.apply, 'apply ');
  });
  w.line('}');
}

function printActionReference(a: ActionReference): string {
  return `${printAnnotations(a.annotations)}${printPath(a.action.path)}${a.args ? `(${printArguments(a.args)})` : ''}`;
}

function printTable(w: SourceWriter, t: TableDeclaration): void {
  w.line(`${printAnnotations(t.annotations)}table ${t.name.text} {`);
  w.indented(() => t.properties.forEach((p) => printProperty(w, p)));
  w.line('}');
}

function printProperty(w: SourceWriter, p: TableProperty): void {
  switch (p.kind) {
    case 'KeyProperty':
      w.line('key = {');
      w.indented(() =>
        p.elements.forEach((k) => {
          const annotations = k.annotations.length > 0 ? ' ' + printAnnotations(k.annotations).trimEnd() : '';
          w.line(`${printExpression(k.expression)}: ${k.matchKind.text}${annotations};`);
        }),
      );
      w.line('}');
      return;
    case 'ActionsProperty':
      w.line('actions = {');
      w.indented(() => p.actions.forEach((a) => w.line(`${printActionReference(a)};`)));
      w.line('}');
      return;
    case 'EntriesProperty':
      w.line(`${printAnnotations(p.annotations)}${p.isConst ? 'const ' : ''}entries = {`);
      w.indented(() =>
        p.entries.forEach((e) => {
          const priority = e.priority
            ? `priority = ${e.priority.kind === 'IntegerLiteral' ? printExpression(e.priority) : `(${printExpression(e.priority)})`}: `
            : '';
          const annotations = e.annotations.length > 0 ? ' ' + printAnnotations(e.annotations).trimEnd() : '';
          w.line(`${e.isConst ? 'const ' : ''}${priority}${printKeyset(e.keyset)}: ${printActionReference(e.action)}${annotations};`);
        }),
      );
      w.line('}');
      return;
    case 'ValueProperty':
      w.line(`${printAnnotations(p.annotations)}${p.isConst ? 'const ' : ''}${p.name.text} = ${printExpression(p.value)};`);
      return;
  }
}
