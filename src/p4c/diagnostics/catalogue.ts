/**
 * @fileoverview The catalogue of every diagnostic the front end can report.
 * Each entry has a stable number (printed as P4C<number>), a name that code
 * and tests use, a severity and a message template whose `{0}`, `{1}`, ...
 * are filled from the report's arguments. Numbers are never reused or
 * renumbered; retire an entry by leaving it in place.
 *
 * Reserved ranges:
 *   1000-1099  lexical          1100-1199  preprocessor     1200-1499  syntax
 *   2000-2999  names and scopes 3000-3999  types            4000-4999  control plane / P4Info
 *   5000-5999  unsupported      8000-8999  driver, internal 9000-9999  warnings
 */

export type Severity = 'error' | 'warning' | 'note';

export interface DiagnosticDefinition {
  readonly code: number;
  readonly severity: Severity;
  readonly template: string;
}

export const DIAGNOSTIC_CATALOGUE = {
  // 1000-1099: lexical
  InvalidCharacter: { code: 1001, severity: 'error', template: "unexpected character '{0}'" },
  UnterminatedString: { code: 1002, severity: 'error', template: 'unterminated string literal' },
  UnterminatedComment: { code: 1003, severity: 'error', template: "unterminated comment: '/*' without '*/'" },
  InvalidIntegerLiteral: { code: 1004, severity: 'error', template: "invalid integer literal '{0}': {1}" },

  // 1100-1199: preprocessor
  IncludeNotFound: { code: 1101, severity: 'error', template: "cannot find include file '{0}' (searched {1})" },
  IncludeCycle: { code: 1102, severity: 'error', template: 'include cycle: {0}' },
  IncludeTooDeep: { code: 1103, severity: 'error', template: 'includes nested more than {0} deep' },
  MalformedInclude: { code: 1104, severity: 'error', template: '#include expects "FILE" or <FILE>' },
  UnknownDirective: { code: 1105, severity: 'error', template: "unknown preprocessor directive '#{0}'" },
  MalformedDefine: { code: 1106, severity: 'error', template: '#{0} expects a macro name' },
  UnterminatedConditional: { code: 1107, severity: 'error', template: '#{0} without a matching #endif' },
  UnmatchedConditional: { code: 1108, severity: 'error', template: '#{0} without a matching #if' },
  DirectiveAfterElse: { code: 1109, severity: 'error', template: '#{0} after #else' },
  InvalidIfExpression: { code: 1110, severity: 'error', template: 'invalid #if expression: {0}' },
  ErrorDirective: { code: 1111, severity: 'error', template: '#error {0}' },
  MacroArgumentCount: { code: 1112, severity: 'error', template: "macro '{0}' takes {1} argument(s), but {2} were given" },
  UnterminatedMacroCall: { code: 1113, severity: 'error', template: "unterminated call of macro '{0}': missing ')'" },
  CannotReadFile: { code: 1114, severity: 'error', template: "cannot read '{0}'" },
  MacroExpansionTooDeep: { code: 1115, severity: 'error', template: "expansion of macro '{0}' nested more than {1} deep" },
  InvalidCommandLineDefine: { code: 1116, severity: 'error', template: "invalid -D definition '{0}': expected NAME or NAME=VALUE" },
  MalformedMacroParameters: { code: 1117, severity: 'error', template: "malformed parameter list of macro '{0}'" },
  MacroExpansionTooLarge: { code: 1118, severity: 'error', template: "expanding macro '{0}' makes more than {1} tokens" },
  TooManyIncludes: {
    code: 1119,
    severity: 'error',
    template: 'more than {0} files are included in all (a file counts each time it is included); guard the files with #ifndef/#define or #pragma once',
  },

  // 1200-1499: syntax
  ExpectedToken: { code: 1201, severity: 'error', template: 'expected {0}, found {1}' },
  ExpectedDeclaration: { code: 1202, severity: 'error', template: 'expected a declaration, found {0}' },
  ExpectedExpression: { code: 1203, severity: 'error', template: 'expected an expression, found {0}' },
  ExpectedType: { code: 1204, severity: 'error', template: 'expected a type, found {0}' },
  ExpectedStatement: { code: 1205, severity: 'error', template: 'expected a statement, found {0}' },
  ExpectedName: { code: 1206, severity: 'error', template: 'expected a name, found {0}' },
  ExpectedTableProperty: { code: 1207, severity: 'error', template: 'expected a table property, found {0}' },
  ExpectedParserState: { code: 1208, severity: 'error', template: "expected 'state', found {0}" },
  TypeUsedAsValue: { code: 1209, severity: 'error', template: "'{0}' is a type, not a value" },
  NotAssignable: { code: 1210, severity: 'error', template: 'the left side of = must be a variable, field, array element or slice' },
  ParserWithoutStates: { code: 1211, severity: 'error', template: "parser '{0}' has no states" },
  TableWithoutProperties: { code: 1212, severity: 'error', template: "table '{0}' has no properties" },
  ControlWithoutApply: { code: 1213, severity: 'error', template: "control '{0}' has no apply block" },
  ExpectedStatementNotExpression: { code: 1214, severity: 'error', template: 'only assignments and calls can be statements; this expression does nothing' },
  DeclarationNotAllowedHere: { code: 1215, severity: 'error', template: "'{0}' cannot be declared here: {1}" },
  StatementNotAllowedInParser: { code: 1216, severity: 'error', template: "'{0}' statements are not allowed in a parser state" },
  ExpectedKeyset: { code: 1217, severity: 'error', template: 'expected a keyset (a value, mask, range, default or _), found {0}' },
  NestingTooDeep: { code: 1218, severity: 'error', template: 'nested more than {0} deep; simplify this code' },
  ExpressionTooDeep: {
    code: 1219,
    severity: 'error',
    template: 'this expression nests more than {0} levels deep, the most this compiler takes (each operator of a chain such as a + b + c is one level); split it with local variables',
  },
  TooManyErrors: { code: 1299, severity: 'error', template: 'too many errors; stopped reporting after {0}' },

  // 2000-2999: names and scopes
  UnknownName: { code: 2001, severity: 'error', template: "unknown name '{0}'" },
  DuplicateDeclaration: { code: 2002, severity: 'error', template: "'{0}' is already declared in this scope" },
  UnknownType: { code: 2003, severity: 'error', template: "unknown type '{0}'" },
  UnknownMember: { code: 2004, severity: 'error', template: "{0} has no member '{1}'" },
  NotAType: { code: 2005, severity: 'error', template: "'{0}' is not a type" },
  UnknownState: { code: 2006, severity: 'error', template: "unknown parser state '{0}'" },
  UnknownMatchKind: { code: 2007, severity: 'error', template: "unknown match kind '{0}' (declared: {1})" },
  UsedBeforeDeclaration: { code: 2009, severity: 'error', template: "'{0}' is used before its declaration; P4 needs it declared first (p4c refuses this too)" },
  NotAnAction: { code: 2008, severity: 'error', template: "'{0}' is not an action" },

  // 3000-3999: types
  TypeMismatch: { code: 3001, severity: 'error', template: 'cannot use a value of type {1} where {0} is expected' },
  OperandMismatch: { code: 3002, severity: 'error', template: "the operands of '{0}' have different types: {1} and {2}; add a cast" },
  SliceOutOfRange: { code: 3003, severity: 'error', template: 'slice [{0}:{1}] is out of range for {2}' },
  ConditionNotBool: { code: 3004, severity: 'error', template: 'a condition must be bool, not {0}' },
  NotLValue: { code: 3005, severity: 'error', template: "the argument for {0} parameter '{1}' must be a variable, field or slice" },
  ArgumentCount: { code: 3006, severity: 'error', template: "'{0}' takes {1} argument(s), but {2} were given" },
  NotConstant: { code: 3007, severity: 'error', template: '{0} must be a compile-time constant' },
  BadOperand: { code: 3008, severity: 'error', template: "operator '{0}' cannot be applied to {1}" },
  NotCallable: { code: 3009, severity: 'error', template: "'{0}' cannot be called" },
  InvalidCast: { code: 3010, severity: 'error', template: 'cannot cast {0} to {1}' },
  InvalidWidth: { code: 3011, severity: 'error', template: 'invalid width {0}: must be from {1} to 2048' },
  ReadOnlyAssignment: { code: 3012, severity: 'error', template: "cannot assign to '{0}': {1}" },
  ActionParameterOrder: { code: 3014, severity: 'error', template: "parameter '{0}' of action '{1}' has a direction but follows action data; put directional parameters first" },
  StackCursorOutsideParser: { code: 3015, severity: 'error', template: "'.{0}' of a header stack can only be used in a parser; index the stack instead" },
  NestedConditionalCondition: {
    code: 3016,
    severity: 'error',
    template: 'a condition must be bool, not {0}: P4 reads `a ? b : c ? d : e` as `(a ? b : c) ? d : e`; to choose between d and e inside the else branch, write `a ? b : (c ? d : e)`',
  },
  ReturnValueNotAllowed: { code: 3018, severity: 'error', template: "'return' with a value is only allowed in a function; actions and apply blocks return nothing" },
  MissingReturn: { code: 3019, severity: 'error', template: "function '{0}' does not return a value on every path (p4c refuses this too)" },
  MissingReturnValue: { code: 3020, severity: 'error', template: "function '{0}' must return a value of type {1}" },
  TypeArgumentCount: { code: 3021, severity: 'error', template: "'{0}' takes {1} type argument(s), but {2} were given" },
  StaticAssertFailed: { code: 3017, severity: 'error', template: 'static_assert failed: {0}' },
  WidthDoesNotFit: { code: 3022, severity: 'error', template: "the width {0} does not fit in its own {1} bits (it would be {2}); write it without a size, e.g. {3}" },
  TypeNestingTooDeep: {
    code: 3023,
    severity: 'error',
    template: "type '{0}' nests more than {1} levels deep (structs, headers, stacks and tuples within each other, through their declarations); flatten it",
  },
  StackTooLarge: { code: 3024, severity: 'error', template: 'a header stack of {0} elements is more than the switch takes ({1}): every packet carries all of them' },
  ConstantTooLarge: { code: 3025, severity: 'error', template: 'this compile-time integer needs more than {0} bits; no width is that large (they stop at 2048)' },
  ShiftByNegative: { code: 3013, severity: 'error', template: 'cannot shift by a signed or negative amount ({0})' },

  // 4000-4999: control plane and P4Info
  DefaultActionNotInTable: { code: 4001, severity: 'error', template: "default action '{0}' is not in the actions of table '{1}'" },
  BadTableSize: { code: 4002, severity: 'error', template: 'table size must be a positive integer, not {0}' },
  UnknownTableProperty: { code: 4003, severity: 'error', template: "unknown table property '{0}' (v1model knows key, actions, default_action, entries, size, counters, meters, implementation, support_timeout)" },
  DuplicateTableProperty: { code: 4004, severity: 'error', template: "table property '{0}' is given twice" },
  NotDirectResource: { code: 4005, severity: 'error', template: "'{0}' of table '{1}' must name a {2} instance" },
  EntryKeyCount: { code: 4006, severity: 'error', template: "an entry of table '{0}' has {1} key value(s), but the table has {2} key field(s)" },
  // 4007 (ActionArgumentCount) is retired, never reported: ArgumentCount (3006) and ActionRequiresArguments (4014) say it.
  DuplicateControlPlaneName: { code: 4008, severity: 'error', template: "control-plane name '{0}' is used by two objects of the same kind" },
  NoMain: { code: 4009, severity: 'error', template: "the program has no 'main' package instance (e.g. V1Switch(...) main;)" },
  BadMain: { code: 4010, severity: 'error', template: "'main' must instantiate V1Switch with a parser, two controls ... and a deparser: {0}" },
  DirectResourceShared: { code: 4011, severity: 'error', template: "direct {0} '{1}' is attached to more than one table" },
  DefaultActionScope: { code: 4012, severity: 'error', template: "action '{0}' is @tableonly in table '{1}' and cannot be its default action" },
  TableWithoutActions: { code: 4013, severity: 'error', template: "table '{0}' has no 'actions' property" },
  ActionNotInTable: { code: 4015, severity: 'error', template: "action '{0}' is not in the actions of table '{1}'" },
  BadId: { code: 4016, severity: 'error', template: 'bad @id: {0}' },
  ActionDataWithoutWidth: {
    code: 4018,
    severity: 'error',
    template: "parameter '{0}' of action '{1}' is action data of type {2}, an enum with no underlying type: P4Info would give it no bitwidth and the switch cannot install it; declare it with one, e.g. 'enum bit<8> {2} { ... }'",
  },
  KeyWithoutWidth: {
    code: 4017,
    severity: 'error',
    template: "match field '{0}' has type {1}, an enum with no underlying type, which has no bitwidth in P4Runtime (p4c rejects it too); declare it with one, e.g. 'enum bit<8> {1} { ... }', or match on a bit<W> field",
  },
  KeyNeedsName: {
    code: 4019,
    severity: 'error',
    template: "the key expression '{0}' has no control-plane name: only names, fields, 'isValid()', indices, slices, '&' and constants get one; add '@name(\"...\")' to it (p4c refuses it too)",
  },
  AnonymousTableProperty: {
    code: 4020,
    severity: 'error',
    template: "table '{0}' constructs its '{1}' in place without a name, which P4Runtime cannot address; name it with '@name(\"...\") {1} = ...' (p4c refuses it too), or declare the instance in the control and name it here",
  },
  ActionRequiresArguments: { code: 4014, severity: 'error', template: "entry or default action '{0}' must give all {1} action argument(s)" },

  ConstEntriesWithPriority: {
    code: 4030,
    severity: 'error',
    template: "table '{0}' has 'const entries', which cannot have priorities (p4c refuses them too); write 'entries' without 'const' to give priorities, or drop them and let the order of the entries decide",
  },
  PriorityNotNeeded: { code: 4031, severity: 'error', template: "the entries of table '{0}' have priorities, but its key is only exact and lpm fields, which need none (p4c refuses this too)" },
  TableSizeTooLarge: {
    code: 4033,
    severity: 'error',
    template: 'table size {0} is more than {1}, the largest p4c takes (it reads sizes as 32-bit signed integers: "Value too large for int")',
  },
  IdNotUnsigned32: { code: 4034, severity: 'error', template: '@id must be an integer from 0 to 4294967295 (32 bits), not {0} (p4c refuses it too)' },
  IdWrongPrefix: {
    code: 4035,
    severity: 'error',
    template: "@id({0}) of {1} '{2}' has the top byte 0x{3}, but {1} ids start with 0x{4}: give only the low 24 bits (the prefix is added, as p4c does) or the right prefix",
  },
  ZeroFieldId: { code: 4036, severity: 'error', template: '@id(0): ids of match fields, action parameters and header fields start at 1 (p4c refuses 0 too)' },
  DuplicateId: { code: 4037, severity: 'error', template: '@id {0} is given twice, among {1}; give each its own id (p4c refuses it too)' },
  BadValueSetSize: { code: 4038, severity: 'error', template: 'a value_set size must be an integer from 0 to 2147483647 (P4Info keeps it as int32), not {0}' },
  FirstEntryWithoutPriority: { code: 4032, severity: 'error', template: "the first entry of table '{0}' must have a priority when others do: the entries after one with a priority count down from it" },

  // 5000-5999: unsupported
  UnsupportedMacroOperator: { code: 5001, severity: 'error', template: "unsupported: the '{0}' operator in macro bodies" },
  UnsupportedSyntax: { code: 5002, severity: 'error', template: 'unsupported: {0}' },
  IrNestingTooDeep: {
    code: 5004,
    severity: 'error',
    template: "'{0}' nests {1} levels deep in the pipeline IR, and the switch loads at most {2}: split deep expressions with local variables, or flatten nested statements",
  },
  TableAppliedTwice: {
    code: 5003,
    severity: 'error',
    template: "table '{0}' is applied {1} times per packet; BMv2 cannot (p4c-bm2-ss refuses it: \"requires a cycle\"): apply it once, or declare a copy of it",
  },

  // 8000-8999: driver and internal
  InternalError: { code: 8001, severity: 'error', template: 'internal compiler error in {0}: {1}' },

  // 9000-9999: warnings
  IgnoredDirective: { code: 9001, severity: 'warning', template: '#{0} is ignored' },
  ExtraTokensAfterDirective: { code: 9002, severity: 'warning', template: 'extra tokens after #{0} are ignored' },
  WarningDirective: { code: 9003, severity: 'warning', template: '#warning {0}' },
  MacroRedefined: { code: 9004, severity: 'warning', template: "macro '{0}' redefined" },
  TableSizeZero: { code: 9005, severity: 'warning', template: "size = 0 gives table '{0}' the default size, {1}, as p4c does; give the size you want, or leave 'size' out" },
} as const satisfies Record<string, DiagnosticDefinition>;

/** The name of a catalogue entry, e.g. 'ExpectedToken'. */
export type DiagnosticId = keyof typeof DIAGNOSTIC_CATALOGUE;

/** The printed form of a code: P4C1201. */
export function codeString(code: number): string {
  return `P4C${String(code).padStart(4, '0')}`;
}

/** Fills `{0}`, `{1}`, ... of a template; a missing argument is left visible as `{n}`. */
export function fillTemplate(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });
}
