/**
 * @fileoverview Statements and the declarations found among them.
 */
import type { ConstantDeclaration, FunctionDeclaration, Instantiation, VariableDeclaration } from '../ast/declarations.js';
import type { BlockStatement, IfStatement, Statement, StatementOrDeclaration } from '../ast/statements.js';
import { printAnnotations, printArguments, printExpression, printParameters, printType, printTypeParameters } from './expressions.js';
import type { SourceWriter } from './writer.js';

/** `{`, the body indented, `}`; `head` goes before the brace on the first line. */
export function printBlock(w: SourceWriter, block: BlockStatement, head = ''): void {
  w.line(`${head}${printAnnotations(block.annotations)}{`);
  w.indented(() => block.body.forEach((item) => printStatementOrDeclaration(w, item)));
  w.line('}');
}

export function printStatementOrDeclaration(w: SourceWriter, item: StatementOrDeclaration): void {
  switch (item.kind) {
    case 'VariableDeclaration':
      printVariable(w, item);
      return;
    case 'ConstantDeclaration':
      printConstant(w, item);
      return;
    case 'Instantiation':
      printInstantiation(w, item);
      return;
    default:
      printStatement(w, item);
  }
}

export function printStatement(w: SourceWriter, s: Statement): void {
  switch (s.kind) {
    case 'AssignmentStatement':
      w.line(`${printExpression(s.target)} = ${printExpression(s.value)};`);
      return;
    case 'CallStatement':
      w.line(`${printExpression(s.call)};`);
      return;
    case 'BlockStatement':
      printBlock(w, s);
      return;
    case 'IfStatement':
      printIf(w, s, 'if');
      return;
    case 'SwitchStatement':
      w.line(`switch (${printExpression(s.subject)}) {`);
      w.indented(() => {
        for (const c of s.cases) {
          const label = `${printExpression(c.label)}:`;
          if (c.body) printBlock(w, c.body, `${label} `);
          else w.line(label);
        }
      });
      w.line('}');
      return;
    case 'ExitStatement':
      w.line('exit;');
      return;
    case 'ReturnStatement':
      w.line(s.value ? `return ${printExpression(s.value)};` : 'return;');
      return;
    case 'EmptyStatement':
      w.line(';');
      return;
  }
}

/**
 * `if (c) {...} else if (d) {...} else {...}`: `else` joins the closing brace
 * of a block branch; a branch that is not a plain block goes on its own
 * indented line.
 */
function printIf(w: SourceWriter, s: IfStatement, keyword: string, joinToPrevious = false): void {
  const endsWithBrace = printBranch(w, `${keyword} (${printExpression(s.condition)})`, s.then, joinToPrevious);
  if (!s.else) return;
  if (s.else.kind === 'IfStatement') printIf(w, s.else, 'else if', endsWithBrace);
  else printBranch(w, 'else', s.else, endsWithBrace);
}

/** Prints `head` and a branch; true when the branch ended with a `}` line. */
function printBranch(w: SourceWriter, head: string, body: Statement, join: boolean): boolean {
  if (body.kind === 'BlockStatement' && body.annotations.length === 0) {
    if (join) w.appendToLast(` ${head} {`);
    else w.line(`${head} {`);
    w.indented(() => body.body.forEach((item) => printStatementOrDeclaration(w, item)));
    w.line('}');
    return true;
  }
  if (join) w.appendToLast(` ${head}`);
  else w.line(head);
  w.indented(() => printStatement(w, body));
  return false;
}

export function printConstant(w: SourceWriter, d: ConstantDeclaration): void {
  w.line(`${printAnnotations(d.annotations)}const ${printType(d.type)} ${d.name.text} = ${printExpression(d.value)};`);
}

export function printVariable(w: SourceWriter, d: VariableDeclaration): void {
  const init = d.initializer ? ` = ${printExpression(d.initializer)}` : '';
  w.line(`${printAnnotations(d.annotations)}${printType(d.type)} ${d.name.text}${init};`);
}

export function printInstantiation(w: SourceWriter, d: Instantiation): void {
  const head = `${printAnnotations(d.annotations)}${printType(d.type)}(${printArguments(d.args)}) ${d.name.text}`;
  if (!d.initializer) {
    w.line(`${head};`);
    return;
  }
  w.line(`${head} = {`);
  w.indented(() =>
    d.initializer!.forEach((member) => (member.kind === 'Instantiation' ? printInstantiation(w, member) : printFunction(w, member))),
  );
  w.line('};');
}

export function printFunction(w: SourceWriter, d: FunctionDeclaration): void {
  const head = `${printAnnotations(d.annotations)}${printType(d.returnType)} ${d.name.text}${printTypeParameters(d.typeParams)}(${printParameters(d.params)}) `;
  printBlock(w, d.body, head);
}
