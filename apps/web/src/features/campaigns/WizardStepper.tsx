import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';

interface WizardStepperProps {
  steps: readonly string[];
  active: number;
  /** An edited campaign moves freely between steps; a new one goes in order. */
  editing: boolean;
  /** The step shows its problems. */
  invalid: (name: string) => boolean;
  onStep: (index: number) => void;
}

/** The campaign wizard's steps across its top. */
export const WizardStepper = ({ steps, active, editing, invalid, onStep }: WizardStepperProps) => (
  <Stepper nonLinear={editing} activeStep={active} alternativeLabel sx={{ my: 2 }}>
    {steps.map((name, index) => (
      <Step key={name} completed={!editing && index < active}>
        {editing ? (
          <StepButton onClick={() => { onStep(index); }}>
            <StepLabel error={invalid(name)}>{name}</StepLabel>
          </StepButton>
        ) : (
          <StepLabel error={invalid(name)}>{name}</StepLabel>
        )}
      </Step>
    ))}
  </Stepper>
);
