// Types for the part of mvdan-sh (the GopherJS build of mvdan.cc/sh/v3/syntax) that shell-parse.ts uses.
// Field names follow the Go API; every node is a Go struct seen through JS getters.
declare module "mvdan-sh" {
  export interface Pos {
    Line(): number;
    Col(): number;
    /** Byte offset (UTF-8) into the source. */
    Offset(): number;
    String(): string;
  }

  export interface Node {
    Pos(): Pos;
    End(): Pos;
  }

  export interface File extends Node {
    Stmts: Stmt[];
  }

  export interface Stmt extends Node {
    Cmd: Node | null;
    Redirs: Redirect[];
    Negated: boolean;
    Background: boolean;
  }

  export interface Lit extends Node {
    Value: string;
  }

  export interface Word extends Node {
    Parts: Node[];
  }

  export interface SglQuoted extends Node {
    Dollar: boolean;
    Value: string;
  }

  export interface DblQuoted extends Node {
    Dollar: boolean;
    Parts: Node[];
  }

  export interface CmdSubst extends Node {
    Stmts: Stmt[];
  }

  export interface ProcSubst extends Node {
    Stmts: Stmt[];
  }

  export interface Assign extends Node {
    Name: Lit | null;
    Value: Word | null;
  }

  export interface CallExpr extends Node {
    Assigns: Assign[];
    Args: Word[];
  }

  export interface BinaryCmd extends Node {
    /** A token number; shell-parse.ts learns the numbers by parsing samples. */
    Op: number;
    X: Stmt;
    Y: Stmt;
  }

  export interface Redirect extends Node {
    Op: number;
    Word: Word | null;
    /** The body of a here-document. */
    Hdoc: Word | null;
  }

  export interface Comment {
    Hash: Pos;
    Text: string;
  }

  export interface ParseError {
    Error(): string;
    Pos: Pos;
    Text: string;
    Incomplete: boolean;
  }

  export interface ParserOption {
    readonly __parserOption: unique symbol;
  }

  export interface Parser {
    /** Throws a ParseError (or a RangeError on very deep nesting). */
    Parse(source: string, name: string): File;
  }

  export interface Syntax {
    NewParser(...options: ParserOption[]): Parser;
    KeepComments(keep: boolean): ParserOption;
    Variant(language: number): ParserOption;
    LangBash: number;
    LangPOSIX: number;
    NodeType(node: Node): string;
    /** Calls visit for each node, depth first; returning false skips the node's children. */
    Walk(node: Node, visit: (node: Node | null) => boolean): void;
  }

  const sh: { syntax: Syntax };
  export default sh;
}
