import { z } from 'zod';
import { emailAddress, requiredText } from './forms.js';
import { MAX_PASSWORD_LENGTH, passwordStrength, weakPasswordMessage } from './password.js';
import { mobileSchema, supportedCountryCodes } from './phone.js';
import { validationMessages } from './validation.js';

const mustBeTicked = (what: string) =>
  z.literal(true, { message: `You must accept ${what} to sign up` });

/** The sign-up form (docs/identity.md, Sign-up): both checkboxes must be ticked; supported countries only. */
export const signUpSchema = z
  .object({
    firstName: requiredText(100),
    lastName: requiredText(100),
    email: emailAddress,
    mobile: mobileSchema(supportedCountryCodes),
    password: z
      .string({ message: validationMessages.required })
      .min(1, { message: validationMessages.required })
      .max(MAX_PASSWORD_LENGTH, { message: weakPasswordMessage() })
      .refine((p) => passwordStrength(p).strong, { message: weakPasswordMessage() }),
    tac: mustBeTicked('the terms and conditions'),
    communication: mustBeTicked('to receive communication about your account'),
    promoCode: z.string().trim().max(50).optional(),
  })
  .meta({ id: 'SignUp' });

export type SignUpInput = z.input<typeof signUpSchema>;
export type SignUp = z.output<typeof signUpSchema>;

/** The profile dialog: first and last name and the mobile number are required. */
export const profileUpdateSchema = z
  .object({
    firstName: requiredText(100),
    lastName: requiredText(100),
    mobile: mobileSchema(),
  })
  .meta({ id: 'ProfileUpdate' });

export type ProfileUpdate = z.output<typeof profileUpdateSchema>;
