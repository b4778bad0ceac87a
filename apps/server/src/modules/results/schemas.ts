import { MAX_TIME_MS } from '@tempora/contracts';
import { z } from 'zod';

/**
 * A participant as the organiser API takes it: the one validation of the JSON body and of every
 * CSV row (issue 13: CSV imports used to bypass the length limits). A runner may have a single
 * name (either part empty), not none.
 */
export const participantSchema = z
  .object({
    bib: z.string().trim().min(1).max(32),
    chips: z.array(z.string().trim().min(1).max(64)).max(10).optional(),
    firstName: z.string().trim().max(80).default(''),
    lastName: z.string().trim().max(80).default(''),
    gender: z.enum(['M', 'F', 'X']),
    age: z.number().int().min(0).max(120).optional(),
    birthDate: z.iso.date().optional(),
    nationality: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    club: z.string().trim().max(120).optional(),
    wave: z.string().max(40).optional(),
    startTime: z.number().int().positive().max(MAX_TIME_MS).optional(),
    status: z.enum(['registered', 'DNS', 'DNF', 'DSQ']).default('registered'),
    category: z.string().trim().max(64).optional(),
  })
  .refine((p) => p.firstName !== '' || p.lastName !== '', {
    message: 'a first or a last name is required',
    path: ['lastName'],
  });
export type ParticipantInput = z.infer<typeof participantSchema>;
