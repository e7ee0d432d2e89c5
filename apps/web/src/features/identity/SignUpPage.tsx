import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { passwordRules, passwordStrength, signUpSchema, isSupportedCountryCode } from '@parley/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from 'react-oidc-context';
import { Controller, useForm, useWatch, type Resolver, type SubmitHandler } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { countryMenuItems } from '../../components/countryMenuItems';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useConfig } from '../../app/configContext';
import type { SignInState } from '../../auth/userManager';
import { saveRedirect } from '../../session/selection';
import type { PageProps } from '../../app/pageProps';

// The checkboxes start unticked, while the schema accepts only ticked ones.
type Form = Omit<z.input<typeof signUpSchema>, 'tac' | 'communication'> & { tac: boolean; communication: boolean };
type Valid = z.output<typeof signUpSchema>;
const resolver = zodResolver(signUpSchema) as unknown as Resolver<Form, unknown, Valid>;

/** /signup: the query may pre-fill email, first_name, last_name, country and mobile. */
export const SignUpPage = ({ title }: PageProps) => {
  const api = useApiClient();
  const navigate = useNavigate();
  const auth = useAuth();
  const { socialProviders } = useConfig().auth;
  const [params] = useSearchParams();
  const country = (params.get('country') ?? 'US').toUpperCase();
  const { register, handleSubmit, control, formState } = useForm<Form, unknown, Valid>({
    resolver,
    defaultValues: {
      firstName: params.get('first_name') ?? '',
      lastName: params.get('last_name') ?? '',
      email: params.get('email') ?? '',
      mobile: { country: isSupportedCountryCode(country) ? country : 'US', number: params.get('mobile') ?? '' },
      password: '',
      tac: false,
      communication: false,
    },
  });

  // A redirect target given to sign-up is kept for after the first sign-in, when it is a
  // path of this site (saveRedirect keeps nothing else).
  const redirectTo = params.get('redirectTo');
  useEffect(() => {
    if (redirectTo !== null) saveRedirect(redirectTo);
  }, [redirectTo]);

  const password = useWatch({ control, name: 'password' });
  const tac = useWatch({ control, name: 'tac' });
  const communication = useWatch({ control, name: 'communication' });
  const strength = passwordStrength(password);

  const signUp = useMutation({
    mutationFn: (body: Valid) => api.post('/v1/signup', body),
    onSuccess: () => void navigate('/accounts'),
  });
  const submit: SubmitHandler<Valid> = (values) => {
    signUp.mutate(values);
  };
  const e = formState.errors;
  // 'Continue with <provider>': the issuer's sign-in, straight to that provider (idp_hint); a new user
  // meets the same first-login checks (terms, profile, an account) as after the form.
  const continueWith = (id: string) => {
    const state: SignInState = { returnTo: '/accounts' };
    void auth.signinRedirect({ state, extraQueryParams: { idp_hint: id } });
  };

  return (
    <Box sx={{ maxWidth: 520, mx: 'auto', py: 3 }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        {socialProviders.length > 0 && (
          <Stack spacing={1.5} sx={{ mt: 2, mb: 3 }}>
            {socialProviders.map((provider) => (
              <Button key={provider.id} variant="outlined" size="large" onClick={() => { continueWith(provider.id); }}>
                Continue with {provider.name}
              </Button>
            ))}
            <Divider>or</Divider>
          </Stack>
        )}
        <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField fullWidth label="First Name" required {...register('firstName')} error={!!e.firstName} helperText={e.firstName?.message} />
              <TextField fullWidth label="Last Name" required {...register('lastName')} error={!!e.lastName} helperText={e.lastName?.message} />
            </Stack>
            <TextField label="Email" type="email" required autoComplete="email" {...register('email')} error={!!e.email} helperText={e.email?.message} />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label="Country"
                required
                sx={{ minWidth: 200 }}
                defaultValue={isSupportedCountryCode(country) ? country : 'US'}
                {...register('mobile.country')}
              >
                {countryMenuItems()}
              </TextField>
              <TextField
                fullWidth
                label="Mobile"
                type="tel"
                required
                {...register('mobile.number')}
                error={!!e.mobile?.number}
                helperText={e.mobile?.number?.message}
              />
            </Stack>
            <TextField
              label="Password"
              type="password"
              required
              autoComplete="new-password"
              {...register('password')}
              error={!!e.password}
              helperText={e.password ? 'Password is too weak' : undefined}
            />
            <List dense disablePadding aria-label="Password rules">
              {passwordRules.map((rule) => (
                <ListItem key={rule.id} sx={{ py: 0, color: strength.met.includes(rule.id) ? 'success.main' : 'text.secondary' }}>
                  {strength.met.includes(rule.id) ? '✓ ' : '• '}
                  {rule.text}
                </ListItem>
              ))}
            </List>
            <Controller
              control={control}
              name="tac"
              render={({ field }) => (
                <FormControlLabel
                  label="I agree to the terms and conditions"
                  control={<Checkbox checked={field.value} onChange={(_event, checked) => { field.onChange(checked); }} />}
                />
              )}
            />
            <Controller
              control={control}
              name="communication"
              render={({ field }) => (
                <FormControlLabel
                  label="I agree to receive communication about my account"
                  control={<Checkbox checked={field.value} onChange={(_event, checked) => { field.onChange(checked); }} />}
                />
              )}
            />
            {signUp.isError && <ErrorAlert message={errorMessage(signUp.error)} />}
            <Button type="submit" variant="contained" size="large" disabled={!tac || !communication} loading={signUp.isPending}>
              Sign Up
            </Button>
            <Typography variant="body2">
              Already have an account?{' '}
              <Link component={RouterLink} to="/login">
                Login
              </Link>
            </Typography>
          </Stack>
        </form>
      </Paper>
    </Box>
  );
};
