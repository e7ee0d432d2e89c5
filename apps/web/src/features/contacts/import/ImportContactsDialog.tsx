import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { DEFAULT_COUNTRY, autoMapColumns, type ImportDefaults, type ImportMapping } from '@parley/shared';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAccount } from '../../../session/queries';
import { useSession } from '../../../session/sessionContext';
import { useAttributeNames, useListOptions } from '../contactsQueries';
import { useContactImport, useUploadImport } from './importQueries';
import { MappingStep } from './MappingStep';
import { readCsvFile, type CsvPreview } from './readCsvFile';
import { SummaryStep } from './SummaryStep';
import { UploadStep } from './UploadStep';
import { initialDefaults, mappingChanges, mappingProblem, sentDefaults } from './wizardState';

export interface ImportContactsDialogProps {
  open: boolean;
  onClose: () => void;
  /** Called once when an import has finished (to refresh the table). */
  onImported?: () => void;
}

const steps = ['Upload CSV', 'Field Mapping', 'Summary'] as const;

/** Upload Contacts: step 0 choose a CSV file, step 1 map its fields, step 2 the summary. */
export const ImportContactsDialog = ({ open, onClose, onImported }: ImportContactsDialogProps) => {
  const { account } = useSession();
  if (!open || account === null) return null;
  return <ImportWizard accountId={account.id} onClose={onClose} onImported={onImported} />;
};

const ImportWizard = ({ accountId, onClose, onImported }: { accountId: string; onClose: () => void; onImported?: () => void }) => {
  const fullAccount = useAccount(accountId);
  const defaultCountry = fullAccount.data?.defaults.country.code ?? DEFAULT_COUNTRY;
  const attributeNames = useAttributeNames(accountId).data ?? [];
  const lists = useListOptions(accountId).data ?? [];

  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [defaults, setDefaults] = useState<ImportDefaults | null>(null);
  const [remove, setRemove] = useState(false);
  const [importId, setImportId] = useState<string | null>(null);
  const upload = useUploadImport(accountId);
  const record = useContactImport(accountId, importId);

  const effectiveDefaults = defaults ?? initialDefaults(defaultCountry);
  const problem = useMemo(
    () => (preview === null ? null : mappingProblem(preview.columns, mapping, effectiveDefaults)),
    [preview, mapping, effectiveDefaults],
  );

  const announced = useRef(false);
  const finished = record.data?.status === 'completed';
  useEffect(() => {
    if (finished && !announced.current) {
      announced.current = true;
      onImported?.();
    }
  }, [finished, onImported]);

  const chooseFile = (chosen: File) => {
    setFile(chosen);
    setPreview(null);
    setReadError(null);
    setReading(true);
    void readCsvFile(chosen).then((reading) => {
      setReading(false);
      if (!reading.ok) {
        setReadError(reading.message);
        return;
      }
      setPreview(reading.preview);
      setMapping(autoMapColumns(reading.preview.columns));
    });
  };

  const startImport = () => {
    if (file === null || preview === null || problem !== null) return;
    upload.mutate(
      {
        file,
        mapping: mappingChanges(preview.columns, mapping),
        defaults: sentDefaults(effectiveDefaults),
        mergeStrategy: remove ? 'remove' : 'append',
      },
      {
        onSuccess: (created) => {
          setImportId(created.id);
          setStep(2);
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="import-contacts-title" fullWidth maxWidth="md">
      <DialogTitle id="import-contacts-title">Upload Contacts</DialogTitle>
      <DialogContent>
        <Stepper activeStep={step} sx={{ mb: 3 }}>
          {steps.map((label) => (
            <Step key={label}>
              <StepLabel>{label}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {step === 0 && (
          <UploadStep fileName={file?.name ?? null} preview={preview} error={readError} reading={reading} onFile={chooseFile} />
        )}
        {step === 1 && preview !== null && (
          <MappingStep
            preview={preview}
            mapping={mapping}
            defaults={effectiveDefaults}
            remove={remove}
            attributeNames={attributeNames}
            lists={lists}
            problem={problem}
            onMapping={(column, target) => {
              setMapping((m) => ({ ...m, [column]: target }));
            }}
            onDefault={(target, value) => {
              setDefaults({ ...effectiveDefaults, [target]: value });
            }}
            onRemove={setRemove}
          />
        )}
        {step === 2 && <SummaryStep record={record.data ?? null} />}
        {upload.isError && <ErrorAlert message={errorMessage(upload.error)} />}
        {record.isError && <ErrorAlert message={errorMessage(record.error)} />}
      </DialogContent>
      <DialogActions>
        {step < 2 && <Button onClick={onClose}>Cancel</Button>}
        {step === 1 && (
          <Button
            onClick={() => {
              setStep(0);
            }}
          >
            Back
          </Button>
        )}
        {step === 0 && (
          <Button
            variant="contained"
            disabled={preview === null || preview.rowCount === 0}
            onClick={() => {
              setStep(1);
            }}
          >
            Next
          </Button>
        )}
        {step === 1 && (
          <Button variant="contained" disabled={problem !== null} loading={upload.isPending} onClick={startImport}>
            Import
          </Button>
        )}
        {step === 2 && (
          <Button variant="contained" onClick={onClose}>
            Close
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};
