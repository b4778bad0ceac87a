import { z } from 'zod';

/** The permissions object `permission/get` answers. */
export const permissionsSchema = z.object({
  rules: z.array(
    z.object({
      action: z.union([z.string(), z.array(z.string())]),
      subject: z.union([z.string(), z.array(z.string())]),
      conditions: z.record(z.string(), z.unknown()).optional(),
      inverted: z.boolean().optional(),
      fields: z.union([z.string(), z.array(z.string())]).optional(),
    }),
  ),
});
export type Permissions = z.infer<typeof permissionsSchema>;
