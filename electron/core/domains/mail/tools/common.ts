import type { JsonObject, ToolContext, ToolDef } from '../../../kernel/types';
import type { MailService } from '../service';

export interface MailToolSpec<I> {
  name: string;
  title: string;
  description: string;
  annotations?: ToolDef['annotations'];
  handler(args: I, ctx: ToolContext): Promise<JsonObject> | JsonObject;
}

/**
 * A tool whose input and output schemas are the normative NeuralMail contract files: ajv parses
 * the input (applying defaults), and the output is checked before it leaves.
 */
export function mailTool<I>(mail: MailService, spec: MailToolSpec<I>): ToolDef {
  const input = `tools/${spec.name}.input`;
  const output = `tools/${spec.name}.output`;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    annotations: spec.annotations,
    inputSchema: mail.contracts.inlined(input),
    outputSchema: mail.contracts.inlined(output),
    parse: (args) => mail.contracts.parse<I>(input, args),
    call: async (args: never, ctx) => {
      const result = await spec.handler(args as I, ctx);
      mail.contracts.check(output, result);
      return result;
    },
  };
}
